/**
 * Each translation's release (translation-schedule.ts), kept file by file: a
 * saved translation costs its own release, a saved item those of its
 * translations. Every release was worked out again on each edit, a pass
 * over 10,000 files on a site with translations.
 */
import type { SiteConfig } from '../core/site.ts'
import type { CompiledFile } from '../pipeline/compile.ts'
import { addToSet, deleteFromSet } from '../core/set-map.ts'
import { translationPublication } from '../pipeline/schedule.ts'
import { translationSchedules, type Schedules, type TranslationSchedule } from './translation-schedule.ts'

export class ScheduleIndex {
  /** `collection/key` → the item's default-locale files (one, unless it is an author error) and translations. */
  private readonly items = new Map<string, Set<CompiledFile>>()
  private readonly translations = new Map<string, Set<CompiledFile>>()
  /** Keys with more than one default-locale file: which one binds the translations is the full pass's to say. */
  private readonly ambiguous = new Set<string>()
  private readonly schedules = new Map<CompiledFile, TranslationSchedule>()

  constructor(private language = '') {}

  /** Forget every file; the files added next are of a site in `language`. */
  reset(language: string): void {
    this.language = language
    for (const map of [this.items, this.translations, this.schedules]) map.clear()
    this.ambiguous.clear()
  }

  add(file: CompiledFile): void {
    const id = `${file.collection}/${file.key}`
    const own = file.locale === this.language
    addToSet(own ? this.items : this.translations, id, file)
    if (own) this.bind(id)
    else this.schedules.set(file, this.scheduleOf(file, id))
  }

  delete(file: CompiledFile): void {
    const id = `${file.collection}/${file.key}`
    const own = file.locale === this.language
    if (!deleteFromSet(own ? this.items : this.translations, id, file)) return
    if (own) this.bind(id)
    else this.schedules.delete(file)
  }

  /** Whether any file is a translation (most sites have none). */
  hasTranslations(): boolean {
    return this.translations.size > 0
  }

  /** The translations bound to `file`'s item when `file` is in the default locale (their releases follow it). */
  boundTo(file: CompiledFile): Iterable<CompiledFile> {
    return file.locale === this.language ? (this.translations.get(`${file.collection}/${file.key}`) ?? []) : []
  }

  /** The releases of `files` (every compiled file, the ones given to add). */
  of(site: SiteConfig, files: Iterable<CompiledFile>): Schedules {
    return this.ambiguous.size ? translationSchedules(site, files) : this.schedules
  }

  /** The item's translations bound to its default-locale file again. */
  private bind(id: string): void {
    if ((this.items.get(id)?.size ?? 0) > 1) this.ambiguous.add(id)
    else this.ambiguous.delete(id)
    for (const file of this.translations.get(id) ?? []) this.schedules.set(file, this.scheduleOf(file, id))
  }

  private scheduleOf(file: CompiledFile, id: string): TranslationSchedule {
    const [item] = this.items.get(id) ?? []
    return { ...translationPublication(file, item), item }
  }
}
