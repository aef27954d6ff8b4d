import nodemailer, { type Transporter } from 'nodemailer';
import { Refusal } from '../../shared/errors.ts';

/** One outgoing message. Addresses are personal data: never logged, never on a public surface. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/**
 * The service's mailer over SMTP (CIVITAS_SMTP_URL), or undefined when mail is not configured.
 * A failure of the mail server leaves as `provider_unavailable` in the service's own words: the
 * SMTP server's text never reaches the caller or the log (failure_projection).
 */
export function mailerFor(config: { smtpUrl?: string; mailFrom: string }): Mailer | undefined {
  if (!config.smtpUrl) return undefined;
  const url = config.smtpUrl;
  return {
    async send(mail) {
      try {
        await transportFor(url).sendMail({
          from: config.mailFrom,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
      } catch {
        throw new Refusal(
          'provider_unavailable',
          {},
          'The mail server did not accept the message. Nothing was changed; try again later.',
        );
      }
    },
  };
}

/** Closes cached SMTP connections (tests, shutdown). */
export function closeMailers(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
