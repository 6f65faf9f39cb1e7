import type { disputeReasons } from '@paygate/contract';
import escapeHtml from 'escape-html';
import type { Language } from '../../i18n/i18n.ts';

/** The colour family of a status: success, failure, needs a look, under way, or settled without money. */
type Tone = 'ok' | 'bad' | 'warn' | 'info' | 'neutral';

/**
 * Every status the pages show (payments, refunds, gateway attempts, webhook deliveries and
 * endpoints, API keys) with its tone and its words in each language. The colour repeats what the
 * words say, never replaces them (WCAG 1.4.1).
 */
const STATUSES: Record<string, { tone: Tone; en: string; es: string }> = {
  CREATED: { tone: 'neutral', en: 'Created', es: 'Creado' },
  REQUIRES_ACTION: { tone: 'warn', en: 'Requires action', es: 'Requiere acción' },
  PROCESSING: { tone: 'info', en: 'Processing', es: 'En proceso' },
  REQUIRES_CAPTURE: { tone: 'warn', en: 'To capture', es: 'Por capturar' },
  SUCCEEDED: { tone: 'ok', en: 'Succeeded', es: 'Completado' },
  FAILED: { tone: 'bad', en: 'Failed', es: 'Fallido' },
  CANCELED: { tone: 'neutral', en: 'Canceled', es: 'Cancelado' },
  EXPIRED: { tone: 'neutral', en: 'Expired', es: 'Caducado' },
  PENDING: { tone: 'info', en: 'Pending', es: 'Pendiente' },
  APPROVED: { tone: 'ok', en: 'Approved', es: 'Aprobado' },
  DECLINED: { tone: 'bad', en: 'Declined', es: 'Rechazado' },
  DELIVERED: { tone: 'ok', en: 'Delivered', es: 'Entregado' },
  enabled: { tone: 'ok', en: 'Enabled', es: 'Activo' },
  failing: { tone: 'warn', en: 'Failing', es: 'Fallando' },
  disabled: { tone: 'bad', en: 'Disabled', es: 'Desactivado' },
  active: { tone: 'ok', en: 'Active', es: 'Activa' },
  expiring: { tone: 'warn', en: 'Expiring', es: 'Caduca' },
  revoked: { tone: 'neutral', en: 'Revoked', es: 'Revocada' },
  // The operator's console: late captures' repair, books that could not be read.
  REFUND_DUE: { tone: 'warn', en: 'Refund due', es: 'Reembolso pendiente de enviar' },
  REFUND_PENDING: { tone: 'info', en: 'Refund sent', es: 'Reembolso enviado' },
  REFUNDED: { tone: 'ok', en: 'Refunded', es: 'Reembolsado' },
  REFUND_FAILED: { tone: 'bad', en: 'Refund failed', es: 'Reembolso fallido' },
  unreadable: { tone: 'bad', en: 'Could not be read', es: 'No se pudo leer' },
  // Disputes (chargebacks) on a payment's page.
  NEEDS_RESPONSE: { tone: 'warn', en: 'Needs response', es: 'Requiere respuesta' },
  UNDER_REVIEW: { tone: 'info', en: 'Under review', es: 'En revisión' },
  WON: { tone: 'ok', en: 'Won', es: 'Ganada' },
  LOST: { tone: 'bad', en: 'Lost', es: 'Perdida' },
};

/** Why a payer disputed a payment, in words (the contract's `reason` values). */
const DISPUTE_REASONS: Record<(typeof disputeReasons)[number], { en: string; es: string }> = {
  fraudulent: { en: 'Fraudulent', es: 'Fraude' },
  duplicate: { en: 'Duplicate', es: 'Cargo duplicado' },
  product_not_received: { en: 'Product not received', es: 'Producto no recibido' },
  product_unacceptable: { en: 'Product unacceptable', es: 'Producto no aceptable' },
  subscription_canceled: { en: 'Subscription canceled', es: 'Suscripción cancelada' },
  credit_not_processed: { en: 'Credit not processed', es: 'Abono no procesado' },
  unrecognized: { en: 'Unrecognized', es: 'Cargo no reconocido' },
  general: { en: 'General', es: 'Otro motivo' },
};

/** The words for a dispute's reason in `lang`; an unknown reason is shown as it came. */
export function disputeReasonLabel(reason: string, lang: Language): string {
  return DISPUTE_REASONS[reason as (typeof disputeReasons)[number]]?.[lang] ?? reason;
}

/** The words for a status in `lang`; an unknown status is shown as it came. */
export function statusLabel(status: string, lang: Language): string {
  return STATUSES[status]?.[lang] ?? status;
}

/** Every status this module knows, for the test that checks each has both languages and a tone. */
export const knownStatuses = (): string[] => Object.keys(STATUSES);

/**
 * A status as a badge: a coloured pill with the status in words. The raw value stays in
 * `data-status` for scripts and tests that match on it.
 */
export function statusBadge(status: string, lang: Language): string {
  const tone = STATUSES[status]?.tone ?? 'neutral';
  return `<span class="badge ${tone}" data-status="${escapeHtml(status)}">${escapeHtml(statusLabel(status, lang))}</span>`;
}
