/**
 * The two kinds of export behind one interface: their items (read again on
 * each pass, never all held), their authors, the old site's address and
 * how a body's HTML is made plain (WordPress's shortcodes and blocks).
 */
import { ghostItems, indexGhost } from './ghost-items.ts'
import { expandWordPress } from './shortcodes.ts'
import type { ExportKind, SourceAuthor, SourceItem } from './source-item.ts'
import { authorOf, indexWordPress, wordPressItems } from './wordpress-items.ts'

export interface ImportSource {
  kind: ExportKind
  /** The old site's address, when known. */
  site: string | undefined
  items(): AsyncIterable<SourceItem>
  author(key: string): SourceAuthor
  /** The body as plain HTML; what it had to drop goes to `notes`. */
  html(item: SourceItem, notes: string[]): string
  /** Types the export holds that are no content of a site (menus, revisions, templates). */
  internal: ReadonlySet<string>
}

const WORDPRESS_INTERNAL = new Set([
  'nav_menu_item',
  'revision',
  'custom_css',
  'customize_changeset',
  'oembed_cache',
  'user_request',
  'wp_block',
  'wp_template',
  'wp_template_part',
  'wp_global_styles',
  'wp_navigation',
  'wp_font_face',
  'wp_font_family',
])

export async function openSource(kind: ExportKind, file: string, site: string | undefined): Promise<ImportSource> {
  if (kind === 'wordpress') {
    const index = await indexWordPress(file)
    const attachments = [...index.attachments.values()]
    return {
      kind,
      site: site ?? (index.site || undefined),
      items: () => wordPressItems(file, index),
      author: (key) => authorOf(index, key),
      html: (item, notes) =>
        expandWordPress(item.html, {
          attachments: index.attachments,
          children: attachments.filter((a) => a.parent === item.id),
          notes,
        }),
      internal: WORDPRESS_INTERNAL,
    }
  }
  const index = await indexGhost(file)
  return {
    kind,
    site,
    items: () => ghostItems(file, index),
    author: (key) => index.authors.get(key) ?? { key, name: key },
    html: (item) => item.html,
    internal: new Set(),
  }
}
