/** Real images made in the test with sharp: photos with a gradient, halves of two colours, transparency, EXIF orientation. */
import sharp from 'sharp'

/** A JPEG (or PNG) of `width`×`height` with a gradient, so encoders have something to encode. */
export async function photo(
  width: number,
  height: number,
  options: { format?: 'jpeg' | 'png'; orientation?: number } = {},
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      raw[i] = Math.round((x / width) * 255)
      raw[i + 1] = Math.round((y / height) * 255)
      raw[i + 2] = 128
    }
  let image = sharp(raw, { raw: { width, height, channels: 3 } })
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation })
  return options.format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer()
}

/** A JPEG whose left half is red and right half blue, stored with EXIF `orientation` and an author's comment. */
export async function halves(width: number, height: number, orientation: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set(x < width / 2 ? [220, 20, 20] : [20, 20, 220], (y * width + x) * 3)
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .withMetadata({ orientation })
    .withExif({ IFD0: { Copyright: 'Secret Photographer', ImageDescription: 'GPS-like private note' } })
    .jpeg({ quality: 95 })
    .toBuffer()
}

/** A PNG with a transparent background and an opaque square. */
export async function transparent(width: number, height: number): Promise<Buffer> {
  const square = await sharp({
    create: { width: width / 2, height: height / 2, channels: 4, background: { r: 0, g: 120, b: 200, alpha: 1 } },
  })
    .png()
    .toBuffer()
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: square, left: width / 4, top: height / 4 }])
    .png()
    .toBuffer()
}

/** The colour of one pixel of an encoded image. */
export async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true })
  const i = (y * info.width + x) * info.channels
  return [data[i]!, data[i + 1]!, data[i + 2]!]
}
