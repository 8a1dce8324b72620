/**
 * The one base of every error the product raises on purpose, in the build,
 * the gateway and the command-line tools. `code` is stable: tests and callers
 * match on it, never on the message. `exitCode` is how a command ends when
 * the error stops it (see cli.ts): 1 when it could not do what was asked
 * (invalid content or settings, a refused action), 2 when it was called
 * wrongly (usage).
 *
 * @example
 * class PortInUseError extends AppError { readonly code = 'PORT_IN_USE' }
 * throw new PortInUseError('port 8787 on 127.0.0.1 is already in use; set PORT to another port')
 */
export abstract class AppError extends Error {
  abstract readonly code: string
  readonly exitCode: 1 | 2 = 1

  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
  }

  /** The lines a command prints for this error (one by default; a list of content errors prints each). */
  lines(): string[] {
    return [this.message]
  }
}

/** A command called with arguments it does not accept; `usage` is printed under the message. */
export class UsageError extends AppError {
  readonly code: string = 'USAGE'
  override readonly exitCode = 2

  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message)
  }

  override lines(): string[] {
    return this.usage ? [this.message, this.usage] : [this.message]
  }
}
