/**
 * What an import did, per type of item: how many were created, updated,
 * left unchanged, skipped (and why), and the notes on the items imported
 * (a password-protected post made a draft, an image missing from --media).
 */
import type { Outcome } from './write-items.ts'

/** The reason of the items that are the old system's own (menus, revisions): counted, not listed. */
export const INTERNAL = 'not content of the site'

interface TypeCounts {
  created: number
  updated: number
  unchanged: number
  skipped: number
}

export class ImportReport {
  readonly types = new Map<string, TypeCounts>()
  readonly lines: string[] = []
  readonly skipped: { type: string; title: string; reason: string }[] = []
  readonly written: string[] = []
  readonly errors: string[] = []
  private readonly outcomes = new Map<string, 'created' | 'updated'>()

  constructor(readonly dryRun: boolean) {}

  private counts(type: string): TypeCounts {
    let counts = this.types.get(type)
    if (!counts) this.types.set(type, (counts = { created: 0, updated: 0, unchanged: 0, skipped: 0 }))
    return counts
  }

  model(line: string): void {
    this.lines.push(`${this.dryRun ? 'would have ' : ''}${line}`)
  }

  item(type: string, outcome: Exclude<Outcome, 'edited' | 'taken'>, path: string, notes: string[]): void {
    this.counts(type)[outcome]++
    if (outcome !== 'unchanged') {
      this.written.push(path)
      this.outcomes.set(path, outcome)
    }
    for (const note of notes) this.lines.push(`  note  ${path}: ${note}`)
  }

  skip(type: string, title: string, reason: string): void {
    this.counts(type).skipped++
    this.skipped.push({ type, title, reason })
  }

  /** A file the check refused: not written after all. */
  refused(type: string, title: string, path: string, error: string): void {
    const counts = this.counts(type)
    counts[this.outcomes.get(path) ?? 'created']--
    counts.skipped++
    this.written.splice(this.written.indexOf(path), 1)
    this.skipped.push({ type, title, reason: `not valid, so not written: ${error}` })
  }

  siteErrors(messages: string[]): void {
    this.errors.push(...messages)
  }

  /** The report as printed, one line each. */
  print(): string[] {
    const out = [...this.lines]
    const internal = new Map<string, number>()
    for (const { type, title, reason } of this.skipped)
      if (reason === INTERNAL) internal.set(type, (internal.get(type) ?? 0) + 1)
      else out.push(`  skip  ${type} "${title}": ${reason}`)
    for (const [type, count] of internal) out.push(`  skip  ${count} ${type}: ${INTERNAL}`)
    const verb = this.dryRun ? 'would be ' : ''
    for (const [type, c] of this.types)
      out.push(
        `${type}: ${c.created} ${verb}created, ${c.updated} ${verb}updated, ${c.unchanged} unchanged, ${c.skipped} skipped`,
      )
    for (const error of this.errors) out.push(`! the site has an error the import did not make: ${error}`)
    return out
  }
}
