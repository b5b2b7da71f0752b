import { MASK, scrubText } from '../errors/redact.js'

/** Error bodies are read this far, no further: enough for any storage's error document. */
export const MAX_STORAGE_BODY_BYTES = 4096

// How object stores word an expired signed URL, each its own way:
// S3 and OSS `<Code>AccessDenied</Code><Message>Request has expired</Message>`;
// GCS `<Code>ExpiredToken</Code>`, "The provided token has expired", "Request signature expired";
// Azure "Signed expiry time [...] has to be after signed start time", "Signature not valid in the specified time frame".
const EXPIRED =
  /Request has expired|\bExpiredToken\b|provided token has expired|Request signature expired|Signed expiry time\b[\s\S]{0,200}\bafter signed start time|Signature not valid in the specified time frame/i

/**
 * Whether a refusal says the signed URL has expired: a 400 or 403 (GCS
 * answers 400, the others 403) whose body, read at most
 * {@link MAX_STORAGE_BODY_BYTES}, says so in one of the object stores' words.
 *
 * @example
 * ```ts
 * saysExpired(403, '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>') // true
 * saysExpired(403, '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>')       // false
 * ```
 */
export function saysExpired(status: number, body: string): boolean {
  return (status === 400 || status === 403) && EXPIRED.test(body.slice(0, MAX_STORAGE_BODY_BYTES))
}

// A query parameter (after `?`, `&` or `;`): every value, whatever its name.
const QUERY_PARAM = /([?&;][\w.%-]+=)[^\s"'<>&;#]*/g
// A signing parameter written alone (`sig=…`, `X-Amz-Signature=…`), as a message may echo it.
// A value already masked (by QUERY_PARAM) is left as it is.
const SIGNING_PARAM = new RegExp(
  String.raw`\b((?:x-amz|x-goog|x-oss)-[\w-]+|signature|sig|se|st|sp|sv|skoid|sktid|skt|ske|sks|skv|token|access_token|ossaccesskeyid|awsaccesskeyid|googleaccessid|expires|policy|key-pair-id|credential)(\s*[=:]\s*)(?!${MASK.replace(/[[\]]/g, '\\$&')})[^\s"'<>&;,]+`,
  'gi',
)
// XML elements in which S3-like stores echo what was signed (`<SignatureProvided>`, `<StringToSign>`, `<CanonicalRequest>`, key ids).
const SIGNING_ELEMENT = /<([\w-]*(?:Signature|StringToSign|CanonicalRequest|AccessKeyId|Credential|Token|GoogleAccessId)[\w-]*)>[\s\S]*?<\/\1>/gi
// JSON fields of the same kind.
const SIGNING_FIELD = /("[\w-]*(?:signature|sig|token|credential|stringtosign|canonicalrequest)[\w-]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi

/**
 * An error body with everything that may carry the URL's signature masked,
 * before any of it reaches an error message: every query parameter's value,
 * signing parameters written alone, the XML elements and JSON fields in
 * which stores echo what was signed, and any value of `url`'s own query (8
 * characters or more) found anywhere in it.
 *
 * @example
 * ```ts
 * maskSignatures('No such key: /v.mp4?X-Amz-Signature=abc123', 'https://cdn.example/v.mp4?X-Amz-Signature=abc123')
 * // 'No such key: /v.mp4?X-Amz-Signature=[redacted]'
 * ```
 */
export function maskSignatures(body: string, url: string): string {
  let text = body
    .replace(SIGNING_ELEMENT, (_, name: string) => `<${name}>${MASK}</${name}>`)
    .replace(SIGNING_FIELD, `$1"${MASK}"`)
    .replace(QUERY_PARAM, `$1${MASK}`)
    .replace(SIGNING_PARAM, `$1$2${MASK}`)
  for (const value of queryValues(url)) text = scrubText(text, value)
  return text
}

/** The values of the URL's query, as sent and decoded. */
function queryValues(url: string): string[] {
  const q = url.indexOf('?')
  if (q === -1) return []
  const values = new Set<string>()
  for (const pair of url.slice(q + 1).split(/[&;]/)) {
    const raw = pair.slice(pair.indexOf('=') + 1)
    values.add(raw)
    try {
      values.add(decodeURIComponent(raw.replace(/\+/g, ' ')))
    } catch {
      // A value that is not valid percent-encoding is masked as sent.
    }
  }
  return [...values]
}
