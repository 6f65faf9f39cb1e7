import type { MailToSend } from '../../mail/queue.ts';

export type MailLanguage = 'en' | 'es';

export interface InvitationFacts {
  merchantName: string;
  /** The inviting user's address; null when the operator invited. */
  invitedBy: string | null;
  role: string;
  acceptUrl: string;
  expiresAt: Date;
}

/** The invitee's message: who asks them to join which merchant, the link, and until when it works. */
export function invitationMail(
  lang: MailLanguage,
  facts: InvitationFacts,
  dedupeKey: string,
): Omit<MailToSend, 'merchantId'> {
  const expires = facts.expiresAt.toISOString().replace('T', ' ').slice(0, 16);
  if (lang === 'es') {
    const who = facts.invitedBy ?? 'El operador de Paygate';
    return {
      dedupeKey,
      subject: `Invitación al panel de ${facts.merchantName}`,
      text: [
        `${who} te invita a unirte a ${facts.merchantName} en el panel de Paygate con el rol ${facts.role}.`,
        '',
        `Acepta la invitación y elige tu contraseña aquí:`,
        facts.acceptUrl,
        '',
        `El enlace caduca el ${expires} UTC y solo funciona una vez.`,
        'Si no esperabas esta invitación, ignora este mensaje.',
      ].join('\n'),
    };
  }
  const who = facts.invitedBy ?? 'The Paygate operator';
  return {
    dedupeKey,
    subject: `Invitation to the ${facts.merchantName} dashboard`,
    text: [
      `${who} invites you to join ${facts.merchantName} on the Paygate dashboard as ${facts.role}.`,
      '',
      'Accept the invitation and choose your password here:',
      facts.acceptUrl,
      '',
      `The link expires on ${expires} UTC and works once.`,
      'If you did not expect this invitation, ignore this message.',
    ].join('\n'),
  };
}
