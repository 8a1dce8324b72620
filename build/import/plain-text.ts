/** Text from the HTML bits exports put in titles, excerpts and captions. */

/** No tags, the common entities undone (WordPress writes its typographic quotes as entities), one line. */
export function plainText(html: string): string {
  return html
    .replace(/<\/?(?:p|div|br|li|h\d|blockquote)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;|&#8220;|&#8221;/g, '"')
    .replace(/&#039;|&#8217;|&#8216;/g, "'")
    .replace(/&#8211;/g, '–')
    .replace(/&#8212;/g, '—')
    .replace(/&#8230;|&hellip;/g, '…')
    .replace(/\s+/g, ' ')
    .trim()
}
