import { RESPONSE_REQUEST as R } from '../contract/index.js'
import { checkArray, checkBoolean, checkObject, checkOneOf, checkString, field, isObject, missing, refuse } from './checkKit.js'

/**
 * Checks of the structured parts of a response-creation body whose inner
 * shape the interface leaves to the OpenAI Responses format: input items,
 * `text.format`, tools and `tool_choice`. Only what the simulator must read
 * is checked, so unusual but valid items pass.
 */

const ROLES = ['user', 'assistant', 'system', 'developer']

/** `input`: a string, or an array of message and item objects. */
export function checkInput(value: unknown): void {
  if (typeof value === 'string') return
  if (!Array.isArray(value)) refuse('input', 'must be a string or an array of input items', value, 'invalid_type')
  value.forEach((item: unknown, index) => checkItem(`input[${index}]`, item))
}

function checkItem(param: string, item: unknown): void {
  checkObject(param, item)
  const get = (key: string) => field(item as Record<string, unknown>, key)
  const type = get('type')
  if (type !== undefined) checkString(`${param}.type`, type)
  const required = (key: string, check: (p: string, v: unknown) => void) => {
    const value = get(key)
    if (value === undefined) missing(`${param}.${key}`)
    check(`${param}.${key}`, value)
  }
  const text = (p: string, v: unknown) => checkString(p, v)
  if (type === 'function_call_output') {
    required('call_id', text)
    required('output', (p, v) => (Array.isArray(v) ? undefined : checkString(p, v)))
  } else if (type === 'function_call') {
    required('call_id', text)
    required('name', text)
    required('arguments', text)
  } else if (type === undefined || type === 'message') {
    required('role', (p, v) => checkOneOf(p, v, ROLES))
    required('content', (p, v) => checkContent(p, v))
  }
}

function checkContent(param: string, value: unknown): void {
  if (typeof value === 'string') return
  if (!Array.isArray(value)) refuse(param, 'must be a string or an array of content parts', value, 'invalid_type')
  value.forEach((part: unknown, index) => {
    checkObject(`${param}[${index}]`, part)
    const type = field(part as Record<string, unknown>, 'type')
    if (type === undefined) missing(`${param}[${index}].type`)
    checkString(`${param}[${index}].type`, type)
  })
}

/** `text`: an object; its `format`, if any, is `text`, `json_object`, or `json_schema` with a `name` and a `schema`. */
export function checkText(value: unknown): void {
  checkObject('text', value)
  const format = field(value as Record<string, unknown>, 'format')
  if (format === undefined || format === null) return
  checkObject('text.format', format)
  const get = (key: string) => field(format as Record<string, unknown>, key)
  if (get('type') === undefined) missing('text.format.type')
  checkOneOf('text.format.type', get('type'), ['text', 'json_object', 'json_schema'])
  if (get('type') !== 'json_schema') return
  if (get('name') === undefined) missing('text.format.name')
  checkString('text.format.name', get('name'), { nonEmpty: true })
  if (get('schema') === undefined) missing('text.format.schema')
  checkObject('text.format.schema', get('schema'))
  if (get('strict') !== undefined) checkBoolean('text.format.strict', get('strict'), true)
}

/** `tools`: an array of objects with a string `type`, or null; a `function` tool needs a `name`. */
export function checkTools(value: unknown): void {
  checkArray('tools', value, true)
  ;(value ?? []).forEach((tool: unknown, index: number) => {
    const param = `tools[${index}]`
    checkObject(param, tool)
    const get = (key: string) => field(tool as Record<string, unknown>, key)
    if (get('type') === undefined) missing(`${param}.type`)
    checkString(`${param}.type`, get('type'))
    if (get('type') !== 'function') return
    if (get('name') === undefined) missing(`${param}.name`)
    checkString(`${param}.name`, get('name'), { nonEmpty: true })
    if (get('parameters') !== undefined) checkObject(`${param}.parameters`, get('parameters'), true)
  })
}

/** `tool_choice`: `none`, `auto`, `required`, or an object with a `type`; a function choice must name one of the tools. */
export function checkToolChoice(value: unknown, tools: unknown): void {
  if (typeof value === 'string') return checkOneOf('tool_choice', value, R.toolChoice)
  if (!isObject(value)) refuse('tool_choice', `must be one of ${R.toolChoice.map((c) => `"${c}"`).join(', ')} or an object`, value, 'invalid_type')
  const type = field(value, 'type')
  if (type === undefined) missing('tool_choice.type')
  checkString('tool_choice.type', type)
  if (type !== 'function') return
  const name = field(value, 'name')
  if (name === undefined) missing('tool_choice.name')
  checkString('tool_choice.name', name)
  const names = (Array.isArray(tools) ? tools : []).filter((t) => isObject(t) && t.type === 'function').map((t) => (t as { name: unknown }).name)
  if (!names.includes(name)) refuse('tool_choice.name', 'must name a function tool given in tools', name)
}
