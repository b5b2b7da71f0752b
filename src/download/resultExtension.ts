/** The kind of a task's results: a video model's, or an image model's. */
export type ResultKind = 'video' | 'image'

/**
 * The extensions a result file may take from its URL, per kind; the first is
 * the kind's fallback. Only media: the URL is the gateway's or its storage
 * host's to write, and an extension such as `exe`, `html`, `svg`, `js` or
 * `hta` would make a saved result something a file manager, a browser or a
 * shell runs when it is opened.
 */
export const RESULT_EXTENSIONS: Readonly<Record<ResultKind, readonly string[]>> = {
  video: ['mp4', 'webm', 'mov', 'm4v', 'mkv'],
  image: ['png', 'jpg', 'jpeg', 'webp', 'gif', 'avif', 'heic', 'bmp', 'tif', 'tiff'],
}

/**
 * The extension `saveResults` gives a result of `kind` fetched from `url`:
 * the URL path's own (lower-cased) when it is one of the kind's
 * {@link RESULT_EXTENSIONS}, else the kind's fallback (`mp4`, `png`). The
 * query and fragment are not read.
 *
 * @example
 * ```ts
 * resultExtension('https://cdn.example/v/clip.MOV?sig=x', 'video') // 'mov'
 * resultExtension('https://cdn.example/v/clip', 'video')           // 'mp4'
 * resultExtension('https://cdn.example/i/page.html', 'image')      // 'png'
 * resultExtension('https://cdn.example/i/run.exe?x=.png', 'image') // 'png'
 * ```
 */
export function resultExtension(url: string, kind: ResultKind): string {
  const allowed = RESULT_EXTENSIONS[kind]
  // A string that is no URL gets the fallback here; download$ refuses it before any request.
  const path = URL.canParse(url) ? new URL(url).pathname : ''
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase()
  return allowed.includes(ext) ? ext : allowed[0]!
}
