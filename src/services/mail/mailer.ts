import nodemailer from 'nodemailer';
import type { AppConfig } from '../../config.js';
import type { Logger } from '../../logger.js';

/** One email: plain text for every reader, HTML for those that show it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Outgoing email. With SMTP_URL, through that server with nodemailer; without it, a message is only
 * written to the log (with its text outside production, so a developer can follow a link; never in
 * production, where it would put one-time links in the logs). `send` answers whether the mail server
 * took the message: a refusal or an unreachable server is logged and answered false, never thrown,
 * because what the mail announces (an invitation) is already committed and stands without it.
 */
export interface Mailer {
  /** Whether a mail server is set (SMTP_URL): without one, `send` only writes the message to the log. */
  configured: boolean;
  send(message: MailMessage, log: Logger): Promise<boolean>;
  /** An absolute address of a storefront page (`/join-shop?token=…`) for a message: PUBLIC_URL's, or this server's own port on localhost. */
  link(pathAndQuery: string): string;
}

/** How long a mail server may take to answer each step before the send counts as failed (the request waits for it). */
const SMTP_TIMEOUT_MS = 10_000;

export function mailerFor(config: Pick<AppConfig, 'mail' | 'nodeEnv' | 'port'>): Mailer {
  const { smtpUrl, from } = config.mail;
  // Without PUBLIC_URL (development: SMTP_URL needs it), links point at this server as its developer reaches it.
  const origin = config.mail.publicUrl ?? `http://localhost:${config.port}`;
  const link = (pathAndQuery: string) => `${origin}${pathAndQuery}`;
  if (!smtpUrl) {
    return {
      configured: false,
      link,
      send: (message, log) => {
        const shown = config.nodeEnv === 'production' ? {} : { text: message.text };
        log.info({ mail: { to: message.to, subject: message.subject, ...shown } }, 'email not sent: no SMTP_URL is set (written here instead)');
        return Promise.resolve(false);
      },
    };
  }
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    // smtps: TLS from the first byte; smtp: STARTTLS whenever the server offers it.
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    configured: true,
    link,
    send: async (message, log) => {
      try {
        await transport.sendMail({ ...message, from });
        return true;
      } catch (error) {
        log.warn({ err: error, mail: { to: message.to, subject: message.subject } }, 'email not sent: the mail server refused it or could not be reached');
        return false;
      }
    },
  };
}

declare module '../../shared/context.js' {
  interface ServiceWiring {
    /** Outgoing email (src/services/wiring.ts). */
    mailer: Mailer;
  }
}
