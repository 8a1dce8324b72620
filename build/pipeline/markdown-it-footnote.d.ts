/** markdown-it-footnote ships no types (and @types/markdown-it-footnote targets markdown-it 14's types). */
declare module 'markdown-it-footnote' {
  import type { MarkdownIt } from 'markdown-it'
  const footnote: (md: MarkdownIt) => void
  export default footnote
}
