import * as v from 'valibot'
import { otherType, type UnknownType } from './otherType.js'

// Content parts and their annotations, as real traffic sends them. Only the
// fields every recorded server sends are required; the rest are optional, and
// every object keeps fields this version does not model.

const int = v.pipe(v.number(), v.integer())

/** The log probability of one token, in a text part or a delta (`bytes` and `top_logprobs` are absent in some). */
export const LogprobSchema = v.looseObject({
  token: v.string(),
  logprob: v.number(),
  bytes: v.optional(v.array(v.number())),
  top_logprobs: v.optional(v.array(v.looseObject({ token: v.optional(v.string()), logprob: v.optional(v.number()), bytes: v.optional(v.array(v.number())) }))),
})

/** A citation of a web page (web search). */
export const UrlCitationSchema = v.looseObject({
  type: v.literal('url_citation'),
  url: v.string(),
  start_index: int,
  end_index: int,
  title: v.optional(v.string()),
})

/** A citation of an uploaded file (file search); older streams carry no `filename`. */
export const FileCitationSchema = v.looseObject({
  type: v.literal('file_citation'),
  file_id: v.string(),
  index: v.optional(int),
  filename: v.optional(v.string()),
})

/** A citation of a file the code interpreter wrote in its container. */
export const ContainerFileCitationSchema = v.looseObject({
  type: v.literal('container_file_citation'),
  container_id: v.string(),
  file_id: v.string(),
  start_index: v.optional(int),
  end_index: v.optional(int),
  filename: v.optional(v.string()),
})

/** A path to a generated file. */
export const FilePathSchema = v.looseObject({ type: v.literal('file_path'), file_id: v.string(), index: v.optional(int) })

const annotationTypes = ['url_citation', 'file_citation', 'container_file_citation', 'file_path'] as const

/** An annotation of output text; kinds this version does not model pass with their `type`. */
export const AnnotationSchema = v.variant('type', [
  UrlCitationSchema,
  FileCitationSchema,
  ContainerFileCitationSchema,
  FilePathSchema,
  v.looseObject({ type: otherType(annotationTypes) }),
])

/** Text written by the model, with its annotations and, when asked for, log probabilities. */
export const OutputTextPartSchema = v.looseObject({
  type: v.literal('output_text'),
  text: v.string(),
  annotations: v.optional(v.array(AnnotationSchema)),
  logprobs: v.optional(v.array(LogprobSchema)),
})

/** The model declined to answer; `refusal` says why. */
export const RefusalPartSchema = v.looseObject({ type: v.literal('refusal'), refusal: v.string() })

/** Raw reasoning text (open-weight models, e.g. through OpenRouter). */
export const ReasoningTextPartSchema = v.looseObject({ type: v.literal('reasoning_text'), text: v.string() })

/** One part of a reasoning summary. */
export const SummaryTextPartSchema = v.looseObject({ type: v.literal('summary_text'), text: v.string() })

const partTypes = ['output_text', 'refusal', 'reasoning_text'] as const

/** A content part of a message (or of a reasoning item, in `response.content_part.*` events). */
export const ContentPartSchema = v.variant('type', [
  OutputTextPartSchema,
  RefusalPartSchema,
  ReasoningTextPartSchema,
  v.looseObject({ type: otherType(partTypes) }),
])

/** The log probability of one token: `token`, `logprob`, and (from some servers) `bytes` and `top_logprobs`. */
export type Logprob = v.InferOutput<typeof LogprobSchema>
/**
 * An annotation of output text, by `type`: `url_citation` (`url`, `title`,
 * `start_index`, `end_index`), `file_citation` (`file_id`, `filename`),
 * `container_file_citation` or `file_path`; other kinds pass with their
 * `type` ({@link UnknownType}).
 */
export type Annotation = v.InferOutput<typeof AnnotationSchema>
/** Text written by the model (`type: 'output_text'`): `text`, its `annotations` and, when asked for, `logprobs`. */
export type OutputTextPart = v.InferOutput<typeof OutputTextPartSchema>
/** The model declined to answer (`type: 'refusal'`); `refusal` says why. */
export type RefusalPart = v.InferOutput<typeof RefusalPartSchema>
/** One part of a reasoning summary (`type: 'summary_text'`): its `text`. */
export type SummaryTextPart = v.InferOutput<typeof SummaryTextPartSchema>
/**
 * A content part of a message, by `type`: {@link OutputTextPart},
 * {@link RefusalPart}, `reasoning_text` (`text`), or another kind with its
 * `type` ({@link UnknownType}). Narrow with `part.type`.
 */
export type ContentPart = v.InferOutput<typeof ContentPartSchema>
export type { UnknownType }
