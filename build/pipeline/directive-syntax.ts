/**
 * remark-directive's syntax (micromark-extension-directive and
 * mdast-util-directive) with one narrowing: a text directive needs a label
 * or attributes (`:name[…]`, `:name{…}`). A bare `:name` is prose
 * (`mailto:x@y.com`, `note:this`), read exactly as the fast path reads it,
 * GFM autolinks and all, so a body does not change when a component is
 * added to it.
 */
import { directiveFromMarkdown } from 'mdast-util-directive'
import { directive } from 'micromark-extension-directive'
import type { Construct, Extension, State, TokenizeContext } from 'micromark-util-types'
import type { Processor } from 'unified'

const COLON = 58

function labelledOnly(text: Construct): Construct {
  return {
    ...text,
    tokenize(this: TokenizeContext, effects, ok, nok) {
      const start = this.events.length
      const done: State = (code) =>
        this.events
          .slice(start)
          .some(([, token]) => token.type === 'directiveTextLabel' || token.type === 'directiveTextAttributes')
          ? ok(code)
          : nok(code)
      return text.tokenize.call(this, effects, done, nok)
    },
  }
}

function syntax(): Extension {
  const base = directive()
  const text = (base.text as Record<number, Construct>)[COLON]!
  return { ...base, text: { [COLON]: labelledOnly(text) } }
}

/** The unified plugin: parse directives (this module's syntax) into mdast-util-directive's nodes. */
export function componentDirectives(this: Processor): void {
  const data = this.data()
  ;(data.micromarkExtensions ??= []).push(syntax())
  ;(data.fromMarkdownExtensions ??= []).push(directiveFromMarkdown())
}
