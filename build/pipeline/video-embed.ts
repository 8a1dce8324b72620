/**
 * Video URLs to privacy-friendly embeds, from an allow-list of hosts: YouTube
 * (youtube-nocookie.com, which sets no cookie until the video plays), Vimeo
 * (with `dnt=1`) and Wistia. Any other URL is an author error.
 */

export const VIDEO_HOSTS = ['youtube.com', 'youtu.be', 'vimeo.com', 'wistia.com', 'wistia.net'] as const

/** Where the embeds' iframes may point: the sanitiser drops an iframe with any other `src`. */
export const EMBED_SRC =
  /^https:\/\/(?:www\.youtube-nocookie\.com\/embed\/|player\.vimeo\.com\/video\/|fast\.wistia\.net\/embed\/iframe\/)[\w-]+(?:\?dnt=1)?$/

export interface VideoEmbed {
  provider: 'youtube' | 'vimeo' | 'wistia'
  embed: string
}

const YOUTUBE_ID = /^[\w-]{6,20}$/

export function videoEmbed(src: string): VideoEmbed | undefined {
  let url: URL
  try {
    url = new URL(src)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  const host = url.hostname.replace(/^(?:www|m)\./, '')
  const path = url.pathname.split('/').filter(Boolean)
  if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const id =
      path[0] === 'watch'
        ? url.searchParams.get('v')
        : ['embed', 'shorts', 'live'].includes(path[0] ?? '')
          ? path[1]
          : undefined
    return id && YOUTUBE_ID.test(id)
      ? { provider: 'youtube', embed: `https://www.youtube-nocookie.com/embed/${id}` }
      : undefined
  }
  if (host === 'youtu.be')
    return path[0] && YOUTUBE_ID.test(path[0])
      ? { provider: 'youtube', embed: `https://www.youtube-nocookie.com/embed/${path[0]}` }
      : undefined
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = path.find((part) => /^\d+$/.test(part))
    return id ? { provider: 'vimeo', embed: `https://player.vimeo.com/video/${id}?dnt=1` } : undefined
  }
  if (host.endsWith('wistia.com') || host.endsWith('wistia.net')) {
    const at = path.findIndex((part) => part === 'medias' || part === 'iframe')
    const id = at === -1 ? undefined : path[at + 1]
    return id && /^\w+$/.test(id)
      ? { provider: 'wistia', embed: `https://fast.wistia.net/embed/iframe/${id}` }
      : undefined
  }
  return undefined
}
