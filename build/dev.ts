/**
 * The one door from gateway/ into build/: what `npm run dev`'s server needs
 * to drive the compiler in memory (the compiler, its watch loop and the
 * preview's view of each item, and the Markdown renderer for the editor's
 * preview pane). Everything else the two share lives in
 * contract/; the layering test holds the gateway to this file.
 */
export { Compiler } from './compiler/compiler.ts'
export type { PreviewItem } from './compiler/preview.ts'
export { watchContent } from './compiler/watch.ts'
export { renderBody } from './pipeline/markdown.ts'
export type { ComponentDeclaration } from './core/components.ts'
