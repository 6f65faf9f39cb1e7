import { Type } from 'typebox';

export const TotpStatus = Type.Object({
  object: Type.Literal('totp'),
  enabled: Type.Boolean(),
  recovery_codes: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Only when enrolment is confirmed: ten one-time codes, shown once',
    }),
  ),
});

export const TotpEnrolment = Type.Object({
  object: Type.Literal('totp_enrolment'),
  secret: Type.String({ description: 'The base32 key, for typing into an authenticator app' }),
  otpauth_uri: Type.String(),
  qr_svg: Type.String({ description: 'The otpauth URI as a QR code, SVG drawn by the service' }),
});

export const TotpCodeBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'A current 6-digit code (or a recovery code to disable)',
    }),
  },
  { additionalProperties: false },
);
