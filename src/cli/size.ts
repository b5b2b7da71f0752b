/**
 * A `--size` as the interface writes it, `width*height`: `1280x720` (and
 * `1280X720`, `1280×720`) is read as `1280*720`, as the help promises; any
 * other value is passed on for the request check to judge.
 *
 * @example
 * ```ts
 * toSize('1280x720') // '1280*720'
 * ```
 */
export function toSize(value: string): string {
  return value.trim().replace(/^(\d+)\s*[xX×*]\s*(\d+)$/, '$1*$2')
}
