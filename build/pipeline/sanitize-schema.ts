/**
 * What body HTML may contain: GitHub's allow-list (rehype-sanitize's
 * defaultSchema, which already has `<picture>`, `<source srcset>` and
 * `width`/`height`) and exactly what responsive images add to it:
 * `loading="lazy"`, `decoding="async"`, `srcset` and `sizes` on `<img>`,
 * `type` and `sizes` on `<source>`. The reference renderer sanitises raw
 * HTML with it, and the local images the build processes (body-images.ts)
 * are written with nothing else, so a body re-sanitised with it is unchanged.
 * Components add `<aside>`, `<figure>`, their `component-*` classes and data
 * attributes, and iframes whose `src` is an allow-listed video player.
 */
import { defaultSchema, type Options as Schema } from 'rehype-sanitize'
import { EMBED_SRC } from './video-embed.ts'

const attributes = defaultSchema.attributes!

/** Components' markup (component-html.ts): their classes and data attributes. */
const COMPONENT_CLASS = /^component(?:-[a-z][a-z\d-]*)?$/
const component = (tag: string) => {
  const own = attributes[tag] ?? []
  const classes = own.flatMap((d) => (Array.isArray(d) && d[0] === 'className' ? d.slice(1) : []))
  const rest = own.filter((d) => !(Array.isArray(d) && d[0] === 'className'))
  return [...rest, ['className', COMPONENT_CLASS, ...classes] as [string, ...(string | RegExp)[]], 'data*']
}

export const BODY_SCHEMA: Schema = {
  ...defaultSchema,
  attributes: {
    ...attributes,
    img: [...(attributes.img ?? []), ['loading', 'lazy'], ['decoding', 'async'], 'srcSet', 'sizes'],
    source: [...(attributes.source ?? []), 'type', 'sizes'],
    div: component('div'),
    span: component('span'),
    p: component('p'),
    a: component('a'),
    aside: component('aside'),
    figure: component('figure'),
    // Only embeds of the allow-listed players; body-finish.ts drops an iframe left without its `src` and fixes the rest.
    iframe: [['src', EMBED_SRC], 'title'],
  },
  tagNames: [...defaultSchema.tagNames!, 'aside', 'figure', 'figcaption', 'iframe'],
}
