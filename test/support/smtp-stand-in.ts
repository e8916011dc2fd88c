import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in mail server for the tests: it speaks SMTP (RFC 5321: EHLO, MAIL FROM, RCPT TO, DATA,
 * QUIT; no TLS, no authentication) on a local port, through the `smtp-server` package, and keeps each
 * message it accepts. The server's own mail goes to it through nodemailer pointed at `url`, as it
 * would to a real one. `refuse` makes it answer 550 to every recipient (a mail server that rejects the
 * message); `stall` makes it hang (never answering a recipient); `close` makes it unreachable. It does not deliver anything anywhere.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent: headers and MIME body. */
  raw: string;
  /** The plain-text part, decoded from quoted-printable. */
  text: string;
}

export interface SmtpStandIn {
  url: string;
  received: ReceivedMail[];
  refuse(on: boolean): void;
  /** While on, a recipient is never answered: a sender waits (a server that hangs), until its own timeout. */
  stall(on: boolean): void;
  /** Recipients it was asked for while stalling (the sender reached the point of sending). */
  stalled: string[];
  close(): Promise<void>;
}

/** RFC 2045's quoted-printable, as nodemailer writes a text part: soft line breaks and `=XX` bytes. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The `text/plain` part of a MIME message (or its body when it has one part). */
function plainText(raw: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw);
  const body = part ? part[1] : raw.slice(raw.search(/\r?\n\r?\n/));
  const encoded = part && /Content-Transfer-Encoding: quoted-printable/i.test(raw.slice(0, raw.indexOf(part[1])).split(/Content-Type: text\/plain/i).pop() ?? '');
  return encoded ? decodeQuotedPrintable(body) : body;
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  let refusing = false;
  let stalling = false;
  const stalled: string[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (stalling) {
        stalled.push(address.address);
        return;
      }
      if (refusing) {
        const error = new Error('mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, text: plainText(raw) });
        callback();
      });
    },
  });
  // A client that goes away mid-conversation (a server process killed while sending) is not the stand-in's error.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (on) => {
      refusing = on;
    },
    stall: (on) => {
      stalling = on;
    },
    stalled,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
