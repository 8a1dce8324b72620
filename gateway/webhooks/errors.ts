/** Why a webhook operation was refused; the keys CLI prints the message as one line. */
import { AppError } from '../../contract/errors.ts'

export type WebhookErrorCode =
  /** A URL, event list or option that cannot be used (a usage error of the CLI: exit 2). */
  | 'WEBHOOK_INVALID'
  /** A URL that would reach the host's own network (SSRF). */
  | 'WEBHOOK_URL_REFUSED'
  | 'WEBHOOK_NOT_FOUND'
  /** Settings that cannot work (the secrets key). */
  | 'WEBHOOK_CONFIG'

export class WebhookError extends AppError {
  override readonly exitCode: 1 | 2

  constructor(
    message: string,
    readonly code: WebhookErrorCode,
  ) {
    super(message)
    this.exitCode = code === 'WEBHOOK_INVALID' || code === 'WEBHOOK_URL_REFUSED' ? 2 : 1
  }
}
