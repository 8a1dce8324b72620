/**
 * The configuration of the editor at /admin/ (Decap CMS), generated from the
 * content model's JSON Schemas (content/site.yaml's collections, compiled by
 * contract/model/): one source of truth, so a field or a collection added to
 * the model is one of the editor with no other edit. The
 * build writes it to dist/admin/config.yml (build/emit/admin.ts); the dev
 * server's local backend (gateway/preview/local-backend.ts) writes only
 * where it says collections live.
 *
 * Production edits through GitHub: Decap's GitHub backend, signed in with
 * Netlify's OAuth provider, with the editorial workflow on (each draft a pull
 * request, its deploy preview linked); who may edit is who may push to the
 * repository. `npm run dev` swaps in the local backend on loopback.
 *
 * @example adminConfigYaml(createAdminConfig(site, references)) // the text of /admin/config.yml
 */
import { adminFields, type AdminField, type ReferenceChoices, type ReferenceOption } from './admin-fields.ts'
import { frontmatterSchema, type CollectionName, type ContentModel } from './model/model.ts'
import { API_PREFIX } from './public-paths.ts'
import { toYaml } from './yaml-text.ts'

export type { AdminField, ReferenceOption } from './admin-fields.ts'

/** What the editor needs of content/site.yaml. */
export interface AdminSite {
  name: string
  /** The marketing site, shown as the editor's site link. */
  url: string
  /** The content model: the collections, their titles and fields. */
  model: ContentModel
  /** `owner/name` of the GitHub repository the editor commits to, if set. */
  repository?: string
  /** The branch drafts are merged into (default `main`). */
  repositoryBranch?: string
  /** The default locale: its files have no locale in their name (`my-post.md`). */
  language?: string
  /** Every locale the site publishes, the default among them; more than one makes the editor multilingual. */
  locales?: readonly string[]
}

/**
 * The editor's translations (Decap's i18n), on a multilingual site: each
 * locale a file beside the item's, `my-post.de.md` (Decap's `multiple_files`;
 * admin/repository-layout.js maps Decap's name for the default locale's file,
 * `my-post.en.md`, to ours, `my-post.md`, and an item's folder to its
 * `index.md`). The default locale first: Decap validates and lists it, and
 * writes the others beside it.
 */
function i18nOf(site: AdminSite): { structure: string; locales: string[]; default_locale: string } | undefined {
  const language = site.language
  const others = (site.locales ?? []).filter((l) => l !== language)
  if (language === undefined || !others.length) return undefined
  const locales = [language, ...others]
  // Decap refuses its whole configuration over a locale it cannot name (a region by number, `es-419`):
  // the editor then edits each translation as an item of its own rather than not at all.
  if (!locales.every((l) => DECAP_LOCALE.test(l))) return undefined
  return { structure: 'multiple_files', locales, default_locale: language }
}

/** The locales Decap's configuration accepts (decap-cms-core's configSchema: letters, `-` and `_`, 2 to 10). */
const DECAP_LOCALE = /^[A-Za-z_-]{2,10}$/

/** Where a collection's files live, relative to the project root: `content/<collection>`. */
export function collectionFolder(collection: CollectionName): string {
  return `content/${collection}`
}

/**
 * Where the editor saves an item's images: a folder named after its file,
 * beside it (`content/blog-posts/my-post/cover.jpg` for
 * `content/blog-posts/my-post.md`), written into the frontmatter and the body
 * as the path relative to the Markdown file (`my-post/cover.jpg`), which is how
 * the build resolves it. The same template is Decap's `media_folder` and
 * `public_folder` of every collection, so GitHub and the local backend lay the
 * repository out alike. (Decap leaves `{{filename}}` empty while a new item has
 * no file yet; admin/media.js puts such uploads' paths right as it saves.)
 */
export const ITEM_MEDIA_FOLDER = '{{filename}}'

/** Portraits several items share: the editor's Media page. */
export const SHARED_MEDIA_FOLDER = 'content/people'
/** The same folder as a content file names it (`avatar_url: ../people/ada.jpg`). */
const SHARED_MEDIA_PUBLIC = '../people'

/** The format name each collection's files are read and written with (registered by the editor's script). */
export function frontmatterFormat(collection: CollectionName): string {
  return `${collection}-frontmatter`
}

/** The Markdown body: not in the frontmatter schema, the same in every collection. */
const BODY_FIELD: AdminField = {
  name: 'body',
  label: 'Body',
  widget: 'markdown',
  required: false,
  // Markdown as written first: the rich-text mode rewrites Markdown it has no control for (tables, footnotes).
  modes: ['raw', 'rich_text'],
  hint: 'GitHub-flavoured Markdown. Start sections at ## (the title is the page heading); every image needs alt text (an uploaded one is saved in the item’s folder).',
}

/**
 * A new item's file name: its Slug field (admin/slug.js fills an empty one
 * from the title before the save, as `npm run new` names files, at most the
 * schema's length, and leaves it out of the file when it only repeats the name).
 */
const NEW_FILE_NAME = '{{fields.slug}}'

function collectionConfig(name: CollectionName, site: AdminSite, choices: ReferenceChoices) {
  const def = site.model.collections[name]!
  const schema = frontmatterSchema(def, site.model)
  const multilingual = i18nOf(site) !== undefined
  const fields = [...adminFields(schema, choices), BODY_FIELD].map((field) => ({
    ...field,
    // Every field of a translation is its own (docs/authoring.md#translations: a complete file, validated on its own).
    ...(multilingual ? { i18n: true } : {}),
  }))
  return {
    name,
    label: def.title,
    label_singular: def.label,
    description: `Files in ${collectionFolder(name)}/ (an item is my-post.md, or my-post/index.md in a folder of its own); the file name is the slug.`,
    folder: collectionFolder(name),
    extension: 'md',
    format: frontmatterFormat(name),
    media_folder: ITEM_MEDIA_FOLDER,
    public_folder: ITEM_MEDIA_FOLDER,
    create: true,
    delete: true,
    slug: NEW_FILE_NAME,
    identifier_field: 'title',
    summary: '{{title}}',
    sortable_fields: ['title', def.sortField],
    view_filters: [{ label: 'Drafts', field: 'draft', pattern: true }],
    // "View preview" of a draft: its record in the API of the pull request's deploy preview.
    preview_path: `${API_PREFIX.slice(1)}/${name}/{{slug}}`,
    ...(multilingual ? { i18n: true } : {}),
    fields,
  }
}

/**
 * The whole configuration, as Decap reads it from /admin/config.yml:
 * `references` are the default locale's published items, `localeReferences`
 * each other locale's (what `related` offers in a translation).
 */
export function createAdminConfig(
  site: AdminSite,
  references: readonly ReferenceOption[],
  localeReferences: Readonly<Record<string, readonly ReferenceOption[]>> = {},
): Record<string, unknown> {
  const i18n = i18nOf(site)
  const choices: ReferenceChoices = { references, ...(i18n ? { byLocale: localeReferences } : {}) }
  return {
    backend: {
      name: 'github',
      ...(site.repository ? { repo: site.repository } : {}),
      branch: site.repositoryBranch ?? 'main',
      // Sign-in through the Netlify site's GitHub OAuth provider.
      base_url: 'https://api.netlify.com',
      auth_endpoint: 'auth',
      // No preview_context: Decap then links the commit status whose context names a deploy, which
      // is Netlify's deploy preview of a draft's pull request under either of its GitHub integrations
      // ("netlify/<site name>/deploy-preview", the older "deploy/netlify"); an exact one misses the other.
      squash_merges: true,
      commit_messages: {
        create: 'content: create {{collection}} “{{slug}}”',
        update: 'content: update {{collection}} “{{slug}}”',
        delete: 'content: delete {{collection}} “{{slug}}”',
        uploadMedia: 'content: upload “{{path}}”',
        deleteMedia: 'content: delete “{{path}}”',
      },
    },
    publish_mode: 'editorial_workflow',
    site_url: site.url,
    display_url: site.url,
    // The Media page: the shared portraits, as an item's Markdown names them.
    media_folder: SHARED_MEDIA_FOLDER,
    public_folder: SHARED_MEDIA_PUBLIC,
    slug: { encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' },
    editor: { preview: true },
    ...(i18n ? { i18n } : {}),
    collections: site.model.names.map((name) => collectionConfig(name, site, choices)),
  }
}

/**
 * What keeps the deployed editor from saving, in the words of the setting to
 * change: the build warns with it, and /admin/ shows it where Decap would say
 * "Check your config.yml file" (a file the build writes, which nobody edits).
 */
export function editorProblem(site: Pick<AdminSite, 'repository'>): string | undefined {
  if (site.repository) return undefined
  return 'repository is not set in content/site.yaml: the editor at /admin/ saves to the GitHub repository named there, like repository: owner/name; until it is set, only npm run dev edits (through its local backend, in this folder)'
}

/** The configuration as YAML, with a header saying where it comes from. */
export function adminConfigYaml(config: Record<string, unknown>): string {
  const header =
    "# Generated by the build from the content model (content/site.yaml's collections, contract/admin-config.ts); do not edit.\n"
  return header + toYaml(config)
}

/** The label of a published item in the `related` choice: `Blog post: Title`. */
export function referenceLabel(model: ContentModel, collection: CollectionName, title: string): string {
  const label = model.collections[collection]?.label ?? collection
  return `${label.charAt(0).toUpperCase()}${label.slice(1)}: ${title}`
}
