import type { Transporter } from 'nodemailer';
import type { Logger } from '../../shared/logger.js';

/**
 * E-mail through the operator's SMTP relay (nodemailer): sign-in links people ask for, and those owners make
 * (docs/security.md, "Coming back without the operator"). Never required: without `--smtp-url` there is no mailer, and
 * links are shown to copy instead. A failure to send is logged (without the link) and said as "could not be sent".
 */

/** The body of an e-mailed sign-in link: what it is, why it came, and that it works once. */
export function signInLinkMail(url: string, why: string): string {
  return [
    why,
    '',
    `Sign in: ${url}`,
    '',
    'The link works once, for a short time. If you did not ask for it, ignore this message: nothing happens until the link is opened.',
  ].join('\n');
}

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<boolean>;
  close(): void;
}

export interface MailSettings {
  smtpUrl?: string | undefined;
  smtpUser?: string | undefined;
  smtpPassword?: string | undefined;
  smtpFrom: string;
}

export function createMailer(settings: MailSettings, logger: Logger): Mailer | null {
  if (!settings.smtpUrl) return null;
  const url = new URL(settings.smtpUrl);
  // nodemailer is loaded at the first message, not with the server.
  let transport: Promise<Transporter> | undefined;
  const transportOf = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: url.hostname,
        port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
        secure: url.protocol === 'smtps:',
        ...(settings.smtpUser ? { auth: { user: settings.smtpUser, pass: settings.smtpPassword ?? '' } } : {}),
      }),
    ));
  return {
    async send(message) {
      try {
        await (await transportOf()).sendMail({ from: settings.smtpFrom, ...message });
        return true;
      } catch (error) {
        logger.warn(
          { err: { message: (error as Error).message }, to_domain: message.to.split('@')[1] },
          'e-mail not sent',
        );
        return false;
      }
    },
    close() {
      void transport?.then(
        (opened) => opened.close(),
        () => undefined,
      );
    },
  };
}
