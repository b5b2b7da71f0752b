import * as v from 'valibot'
import { ContentPartSchema, ReasoningTextPartSchema, SummaryTextPartSchema } from './contentParts.js'
import { otherType } from './otherType.js'
import { TOOL_ITEM_SCHEMAS, TOOL_ITEM_TYPES } from './toolItems.js'

// The output items the model itself writes: messages, reasoning, and calls of
// the caller's own tools. Built-in tool items (search, code, images, MCP) are
// in toolItems.ts. Statuses are plain strings: new ones appear over time.

/** An assistant message: text parts, refusal parts, or both. */
export const MessageItemSchema = v.looseObject({
  type: v.literal('message'),
  id: v.string(),
  role: v.string(),
  content: v.array(ContentPartSchema),
  status: v.optional(v.string()),
  /** `commentary` or `final_answer` on newer models. */
  phase: v.nullish(v.string()),
})

/** Reasoning: its summary parts, raw reasoning text (some servers), or only encrypted content. */
export const ReasoningItemSchema = v.looseObject({
  type: v.literal('reasoning'),
  id: v.string(),
  summary: v.optional(v.array(SummaryTextPartSchema)),
  content: v.nullish(v.array(ReasoningTextPartSchema)),
  encrypted_content: v.nullish(v.string()),
  status: v.optional(v.string()),
})

/** A call of one of the caller's function tools; `arguments` is JSON text. */
export const FunctionCallItemSchema = v.looseObject({
  type: v.literal('function_call'),
  id: v.optional(v.string()),
  /** The id to answer with a `function_call_output`; absent on some compatible servers. */
  call_id: v.optional(v.string()),
  name: v.string(),
  arguments: v.string(),
  status: v.optional(v.string()),
})

/** A call of a custom (free-form) tool; `input` is the tool's raw text. */
export const CustomToolCallItemSchema = v.looseObject({
  type: v.literal('custom_tool_call'),
  id: v.optional(v.string()),
  call_id: v.string(),
  name: v.string(),
  input: v.string(),
  status: v.optional(v.string()),
})

const ownTypes = ['message', 'reasoning', 'function_call', 'custom_tool_call'] as const

/** Any output item; kinds this version does not model pass with their `type`. Narrow with `item.type`. */
export const OutputItemSchema = v.variant('type', [
  MessageItemSchema,
  ReasoningItemSchema,
  FunctionCallItemSchema,
  CustomToolCallItemSchema,
  ...TOOL_ITEM_SCHEMAS,
  v.looseObject({ type: otherType([...ownTypes, ...TOOL_ITEM_TYPES]) }),
])

/** An assistant message (`type: 'message'`): `id`, `role`, `content` ({@link ContentPart}s), `status`, and `phase` on newer models. */
export type MessageItem = v.InferOutput<typeof MessageItemSchema>
/** Reasoning (`type: 'reasoning'`): `id`, its `summary` parts, raw `content` (some servers), or only `encrypted_content`. */
export type ReasoningItem = v.InferOutput<typeof ReasoningItemSchema>
/** A call of one of the caller's function tools (`type: 'function_call'`): `name`, `arguments` (JSON text) and `call_id`, to answer with. */
export type FunctionCallItem = v.InferOutput<typeof FunctionCallItemSchema>
/** A call of a custom (free-form) tool (`type: 'custom_tool_call'`): `name`, `input` (the tool's raw text) and `call_id`. */
export type CustomToolCallItem = v.InferOutput<typeof CustomToolCallItemSchema>
/**
 * One output item of a response, by `type`: {@link MessageItem},
 * {@link ReasoningItem}, {@link FunctionCallItem}, {@link CustomToolCallItem},
 * the built-in tools' items ({@link WebSearchCallItem}, …), or another kind
 * with its `type` ({@link UnknownType}). Narrow with `item.type`.
 */
export type OutputItem = v.InferOutput<typeof OutputItemSchema>
