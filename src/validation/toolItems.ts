import * as v from 'valibot'

// Output items of the built-in tools the model runs on the server side. The
// item that opens a call (`response.output_item.added`) holds little more
// than its id and status, so apart from those every field is optional.

const status = v.optional(v.string())
const anyObject = v.looseObject({})

/** A web search: its `action` says what was searched or opened, with the sources found. */
export const WebSearchCallItemSchema = v.looseObject({
  type: v.literal('web_search_call'),
  id: v.string(),
  status,
  action: v.optional(
    v.looseObject({
      type: v.string(),
      query: v.optional(v.string()),
      queries: v.optional(v.array(v.string())),
      url: v.nullish(v.string()),
      pattern: v.optional(v.string()),
      sources: v.optional(v.array(v.looseObject({ type: v.string(), url: v.optional(v.string()) }))),
    }),
  ),
})

/** A search of the caller's vector stores: the queries made and, when included, the results. */
export const FileSearchCallItemSchema = v.looseObject({
  type: v.literal('file_search_call'),
  id: v.string(),
  status,
  queries: v.optional(v.array(v.string())),
  results: v.nullish(
    v.array(
      v.looseObject({
        file_id: v.optional(v.string()),
        filename: v.optional(v.string()),
        score: v.optional(v.number()),
        text: v.optional(v.string()),
        attributes: v.nullish(anyObject),
      }),
    ),
  ),
})

/** Code the code interpreter ran, in which container, and its logs or images. */
export const CodeInterpreterCallItemSchema = v.looseObject({
  type: v.literal('code_interpreter_call'),
  id: v.string(),
  status,
  code: v.nullish(v.string()),
  container_id: v.optional(v.string()),
  outputs: v.nullish(v.array(v.looseObject({ type: v.string(), logs: v.optional(v.string()), url: v.optional(v.string()) }))),
})

/** An image the image-generation tool made: `result` is the image, base64-encoded. */
export const ImageGenerationCallItemSchema = v.looseObject({
  type: v.literal('image_generation_call'),
  id: v.string(),
  status,
  result: v.nullish(v.string()),
  revised_prompt: v.nullish(v.string()),
  size: v.optional(v.string()),
  quality: v.optional(v.string()),
  background: v.optional(v.string()),
  output_format: v.optional(v.string()),
})

/** A call of a tool on a remote MCP server; `arguments` and `output` are the server's text. */
export const McpCallItemSchema = v.looseObject({
  type: v.literal('mcp_call'),
  id: v.string(),
  server_label: v.string(),
  name: v.string(),
  arguments: v.string(),
  output: v.nullish(v.string()),
  error: v.nullish(v.union([v.string(), anyObject])),
  approval_request_id: v.nullish(v.string()),
  status,
})

/** The tools an MCP server offers. */
export const McpListToolsItemSchema = v.looseObject({
  type: v.literal('mcp_list_tools'),
  id: v.string(),
  server_label: v.string(),
  tools: v.array(
    v.looseObject({ name: v.string(), description: v.nullish(v.string()), input_schema: v.optional(anyObject), annotations: v.nullish(anyObject) }),
  ),
  error: v.nullish(v.string()),
})

/** The model asks the caller to approve an MCP tool call (answer with an `mcp_approval_response`). */
export const McpApprovalRequestItemSchema = v.looseObject({
  type: v.literal('mcp_approval_request'),
  id: v.string(),
  server_label: v.string(),
  name: v.string(),
  arguments: v.string(),
})

/** A computer-use action for the caller to perform. */
export const ComputerCallItemSchema = v.looseObject({
  type: v.literal('computer_call'),
  id: v.string(),
  call_id: v.string(),
  status,
  action: v.optional(anyObject),
})

/** A shell command for the caller to run on its own machine. */
export const LocalShellCallItemSchema = v.looseObject({
  type: v.literal('local_shell_call'),
  id: v.string(),
  call_id: v.string(),
  status,
  action: v.optional(anyObject),
})

/** Every built-in tool item schema, for the output item variant. */
export const TOOL_ITEM_SCHEMAS = [
  WebSearchCallItemSchema,
  FileSearchCallItemSchema,
  CodeInterpreterCallItemSchema,
  ImageGenerationCallItemSchema,
  McpCallItemSchema,
  McpListToolsItemSchema,
  McpApprovalRequestItemSchema,
  ComputerCallItemSchema,
  LocalShellCallItemSchema,
] as const

/** Their `type`s. */
export const TOOL_ITEM_TYPES = TOOL_ITEM_SCHEMAS.map((schema) => schema.entries.type.literal)

/** A web search (`type: 'web_search_call'`): its `action` says what was searched or opened (`query`, `url`), with the `sources` found. */
export type WebSearchCallItem = v.InferOutput<typeof WebSearchCallItemSchema>
/** A search of the caller's vector stores (`type: 'file_search_call'`): the `queries` made and, when included, the `results`. */
export type FileSearchCallItem = v.InferOutput<typeof FileSearchCallItemSchema>
/** Code the code interpreter ran (`type: 'code_interpreter_call'`): `code`, `container_id`, and its `outputs` (logs or images). */
export type CodeInterpreterCallItem = v.InferOutput<typeof CodeInterpreterCallItemSchema>
/** An image the image-generation tool made (`type: 'image_generation_call'`): `result` is the image, base64-encoded. */
export type ImageGenerationCallItem = v.InferOutput<typeof ImageGenerationCallItemSchema>
/** A call of a tool on a remote MCP server (`type: 'mcp_call'`): `server_label`, `name`, `arguments`, and its `output` or `error`. */
export type McpCallItem = v.InferOutput<typeof McpCallItemSchema>
/** The `tools` an MCP server offers (`type: 'mcp_list_tools'`), by `server_label`. */
export type McpListToolsItem = v.InferOutput<typeof McpListToolsItemSchema>
/** The model asks the caller to approve an MCP tool call (`type: 'mcp_approval_request'`); answer with an `mcp_approval_response`. */
export type McpApprovalRequestItem = v.InferOutput<typeof McpApprovalRequestItemSchema>
