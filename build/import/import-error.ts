/** The importer's refusals: one line, exit 1 (contract/cli.ts prints it; never a stack trace). */
import { AppError } from '../../contract/errors.ts'

export class ImportError extends AppError {
  readonly code = 'IMPORT_FAILED'
}
