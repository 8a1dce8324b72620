/**
 * What body HTML may contain: GitHub's allow-list (rehype-sanitize's
 * defaultSchema, which already has `<picture>`, `<source srcset>` and
 * `width`/`height`) and exactly what responsive images add to it:
 * `loading="lazy"`, `decoding="async"`, `srcset` and `sizes` on `<img>`,
 * `type` and `sizes` on `<source>`. The reference renderer sanitises raw
 * HTML with it, and the local images the build processes (body-images.ts)
 * are written with nothing else, so a body re-sanitised with it is unchanged.
 */
import { defaultSchema, type Options as Schema } from 'rehype-sanitize'

const attributes = defaultSchema.attributes!

export const BODY_SCHEMA: Schema = {
  ...defaultSchema,
  attributes: {
    ...attributes,
    img: [...(attributes.img ?? []), ['loading', 'lazy'], ['decoding', 'async'], 'srcSet', 'sizes'],
    source: [...(attributes.source ?? []), 'type', 'sizes'],
  },
}
