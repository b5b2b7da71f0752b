import type { RequestIssue } from '../errors/InvalidRequestError.js'
import type { ResponseRequest } from '../validation/responseRequest.js'
import { isStandardSchema, type StandardSchemaV1 } from './standardSchema.js'
import { functionTool, type ToolDefinition } from './tool.js'
import type { ToolHandler, ToolHandlers } from './types.js'

/** What answers the calls of one name. */
export interface ToolEntry {
  readonly handler: ToolHandler
  /** Validates the arguments before the handler runs (tools made by `tool()`). */
  readonly parameters?: StandardSchemaV1
}

/** The tools of one loop: the request that offers them, and what answers each. */
export interface ToolSet {
  /** The request with the definitions' tools added to its `tools`. */
  readonly body: ResponseRequest
  /** The names the model may call, for an error that tells it. */
  readonly names: readonly string[]
  readonly find: (name: string) => ToolEntry | undefined
}

/**
 * Reads `runTools$`'s tools: handlers by name (the request's `tools` offer
 * them), or definitions made by `tool()` (added to the request's `tools`).
 * Pushes to `issues` what cannot be run: a definition not made by `tool()`,
 * or a name offered twice.
 */
export function toolSet(body: ResponseRequest, tools: ToolHandlers | readonly ToolDefinition[], issues: RequestIssue[]): ToolSet {
  const offered = functionNames(body)
  if (!Array.isArray(tools)) {
    const handlers = tools as ToolHandlers
    const find = (name: string) => (Object.hasOwn(handlers, name) && typeof handlers[name] === 'function' ? { handler: handlers[name] } : undefined)
    return { body, names: offered.length > 0 ? offered : Object.keys(handlers), find }
  }
  const entries = new Map<string, ToolEntry>()
  tools.forEach((definition: unknown, i) => {
    const d = definition as Partial<ToolDefinition> | null
    if (typeof d?.execute !== 'function' || !isStandardSchema(d.parameters) || typeof d.jsonSchema !== 'object' || typeof d.name !== 'string') {
      return void issues.push({ path: `tools[${i}]`, message: 'must be made by tool({ name, parameters, execute })' })
    }
    if (entries.has(d.name) || offered.includes(d.name)) return void issues.push({ path: `tools[${i}]`, message: `offers ${JSON.stringify(d.name)} a second time` })
    entries.set(d.name, { handler: d.execute, parameters: d.parameters })
  })
  const defined = tools.filter((d) => d != null && entries.get(d.name)?.handler === d.execute)
  return {
    body: { ...body, tools: [...(body.tools ?? []), ...defined.map(functionTool)] } as ResponseRequest,
    names: [...offered, ...entries.keys()],
    find: (name) => entries.get(name),
  }
}

/** The names of the function tools a request offers. */
function functionNames(body: ResponseRequest): string[] {
  const tools = Array.isArray(body?.tools) ? (body.tools as { type?: unknown; name?: unknown }[]) : []
  return tools.filter((t) => t?.type === 'function' && typeof t.name === 'string').map((t) => t.name as string)
}
