import * as v from 'valibot'
import { at, byType, event, int } from './eventSchema.js'

// Tool events: the arguments or input of calls as they are written, and the
// progress of the built-in tools the server runs (searches, code, images,
// MCP). Progress events carry only where their item is.

const delta = { ...at, delta: v.string(), obfuscation: v.optional(v.string()) }

/* @__NO_SIDE_EFFECTS__ */
function progress<T extends string>(type: T) {
  return event(type, at)
}

/** Tool call and built-in tool events, by type. */
export const TOOL_EVENTS = byType(
  event('response.function_call_arguments.delta', delta),
  // `name` is in the reference, but recorded OpenAI streams leave it out.
  event('response.function_call_arguments.done', { ...at, arguments: v.string(), name: v.optional(v.string()) }),
  event('response.custom_tool_call_input.delta', delta),
  event('response.custom_tool_call_input.done', { ...at, input: v.string() }),
  event('response.mcp_call_arguments.delta', delta),
  event('response.mcp_call_arguments.done', { ...at, arguments: v.string() }),
  progress('response.mcp_call.in_progress'),
  progress('response.mcp_call.completed'),
  progress('response.mcp_call.failed'),
  progress('response.mcp_list_tools.in_progress'),
  progress('response.mcp_list_tools.completed'),
  progress('response.mcp_list_tools.failed'),
  progress('response.file_search_call.in_progress'),
  progress('response.file_search_call.searching'),
  progress('response.file_search_call.completed'),
  progress('response.web_search_call.in_progress'),
  progress('response.web_search_call.searching'),
  progress('response.web_search_call.completed'),
  progress('response.code_interpreter_call.in_progress'),
  progress('response.code_interpreter_call.interpreting'),
  progress('response.code_interpreter_call.completed'),
  event('response.code_interpreter_call_code.delta', delta),
  event('response.code_interpreter_call_code.done', { ...at, code: v.string() }),
  progress('response.image_generation_call.in_progress'),
  progress('response.image_generation_call.generating'),
  event('response.image_generation_call.partial_image', { ...at, partial_image_index: int, partial_image_b64: v.string() }),
  progress('response.image_generation_call.completed'),
)
