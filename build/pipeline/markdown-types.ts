/** What rendering a Markdown body gives the rest of the build (and the render cache). */
export interface RenderedBody {
  html: string
  text: string
  word_count: number
  /** First paragraph as plain text, the fallback summary. */
  first_paragraph: string
  /** Every image, as its `src` reads in the HTML, with where it is written. */
  images: BodyImage[]
  /** The headings, in order, with the ids the HTML gives them. */
  toc: TocEntry[]
  /** The body as structured nodes (contract/body-tree.ts), from the same walk as the HTML: their JSON text. */
  tree_json: string
}

/** An image of a body: its `src` in the HTML (normalised like every URL) and its `!` in the body (1-based). */
export interface BodyImage {
  src: string
  line: number
  column: number
}

/** An image written without alt text, an accessibility error for authors. */
export interface ImageWithoutAlt {
  url: string
  /** Position inside the body (1-based). */
  line: number
  column: number
}

/** A rendered body, or the images without alt text that stop it from being published. */
export interface BodyResult {
  rendered?: RenderedBody
  missingAlt: ImageWithoutAlt[]
  /** The body's images when it is not rendered (so their files are checked with the alt errors). */
  images?: BodyImage[]
  /** Author errors in components and heading ids: a body with any is not published. */
  errors: BodyError[]
}

/** A heading of the body, for the record's `toc`: its id is the heading's `id` in the HTML. */
export interface TocEntry {
  depth: number
  text: string
  id: string
}

/** An author error in a body (a component, a heading id), at its place in the body (1-based). */
export interface BodyError {
  code: 'COMPONENT' | 'HEADING_ID'
  line: number
  column: number
  detail: string
}
