/**
 * The social card of an item without an image: 1200×630, the collection's
 * title, the item's title and date, the site's name, in the site's colours
 * (content/site.yaml `theme`). Laid out by satori from the element tree
 * below into an SVG whose text is glyph outlines (Inter, from the
 * @fontsource/inter package: no font is looked up or downloaded), then
 * rasterised by sharp (librsvg) into a PNG.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import satori from 'satori'
import sharp from 'sharp'
import { SOCIAL_CARD } from '../../contract/media.ts'

export interface CardInput {
  title: string
  /** The collection's title from site.yaml, e.g. "Blog". */
  label: string
  /** Shown as written, e.g. "14 March 2026". */
  date: string
  site: string
  theme: { background: string; foreground: string; accent: string }
}

/** Bump when the template changes: every card's name changes with it. */
export const CARD_VERSION = 1

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node[] | string } }

const box = (style: Record<string, unknown>, children: Node[] | string): Node => ({
  type: 'div',
  props: { style: { display: 'flex', ...style }, children },
})

const PAD_X = 80
const PAD_Y = 64
const BAR = 16

function template(card: CardInput): Node {
  const size = card.title.length > 90 ? 48 : card.title.length > 50 ? 60 : 72
  return box(
    {
      flexDirection: 'column',
      justifyContent: 'space-between',
      // satori adds padding and borders to the size (content-box): the whole is exactly the card.
      width: SOCIAL_CARD.width - 2 * PAD_X,
      height: SOCIAL_CARD.height - 2 * PAD_Y - BAR,
      padding: `${PAD_Y}px ${PAD_X}px`,
      background: card.theme.background,
      color: card.theme.foreground,
      fontFamily: 'Inter',
      borderTop: `${BAR}px solid ${card.theme.accent}`,
    },
    [
      box({ fontSize: 30, fontWeight: 700, color: card.theme.accent, letterSpacing: 1 }, card.label.toUpperCase()),
      box(
        { fontSize: size, fontWeight: 700, lineHeight: 1.12, maxHeight: size * 1.12 * 4, overflow: 'hidden' },
        card.title,
      ),
      box({ width: SOCIAL_CARD.width - 2 * PAD_X, justifyContent: 'space-between', fontSize: 30 }, [
        box({ fontWeight: 700 }, card.site),
        box({}, card.date),
      ]),
    ],
  )
}

let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700 }[]> | undefined

function loadFonts() {
  fonts ??= (async () => {
    // The package exports only its CSS; its font files sit beside it.
    const dir = join(dirname(fileURLToPath(import.meta.resolve('@fontsource/inter'))), 'files')
    const weights = [400, 700] as const
    return Promise.all(
      weights.map(async (weight) => ({
        name: 'Inter',
        weight,
        data: await readFile(join(dir, `inter-latin-${weight}-normal.woff`)),
      })),
    )
  })()
  return fonts
}

/** The card as PNG bytes. */
export async function renderCard(card: CardInput): Promise<Buffer> {
  const svg = await satori(template(card) as Parameters<typeof satori>[0], {
    width: SOCIAL_CARD.width,
    height: SOCIAL_CARD.height,
    fonts: await loadFonts(),
  })
  // Truecolour at zlib's default level: a palette would be a third smaller and take 50 times as long.
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer()
}
