// Compiled by `tsc --noEmit` (tsconfig includes test/), never run: a
// finished function call (`response.output_item.done`, a final Response's
// `output`) has its `arguments` as a string, so `JSON.parse(item.arguments)`
// needs no cast. Making the field optional on those items breaks the build.
import { expectTypeOf } from 'vitest'
import type { Client } from '../../src/client.js'
import { finalResponse } from '../../src/operators/finalResponse.js'
import { responses$ } from '../../src/responses$.js'
import type { FunctionCallItem, OutputItem } from '../../src/validation/outputItems.js'
import type { Response } from '../../src/validation/response.js'
import type { ResponseStreamEvent, StreamEvent } from '../../src/validation/streamEvents.js'

type Call<I> = Extract<I, { type: 'function_call' }>

expectTypeOf<FunctionCallItem['arguments']>().toEqualTypeOf<string>()
expectTypeOf<Call<StreamEvent<'response.output_item.done'>['item']>['arguments']>().toEqualTypeOf<string>()
expectTypeOf<Call<NonNullable<Response['output']>[number]>['arguments']>().toEqualTypeOf<string>()
expectTypeOf<Call<OutputItem>>().toHaveProperty('arguments').toEqualTypeOf<string>()

/** What a user writes on a stream: narrow by event type, then by item type, and parse. */
export function argumentsOfDoneItems(client: Client): void {
  responses$(client, { model: 'gpt-4.1-mini', input: 'Use get_weather', stream: true }).subscribe((event: ResponseStreamEvent) => {
    if (event.type !== 'response.output_item.done' || event.item.type !== 'function_call') return
    const args: unknown = JSON.parse(event.item.arguments)
    expectTypeOf(event.item.arguments).toEqualTypeOf<string>()
    void args
  })
}

/** And on the final Response of a stream. */
export function argumentsOfFinalOutput(client: Client): void {
  responses$(client, { model: 'gpt-4.1-mini', input: 'Use get_weather', stream: true })
    .pipe(finalResponse())
    .subscribe((response) => {
      for (const item of response.output ?? []) if (item.type === 'function_call') void (JSON.parse(item.arguments) as unknown)
    })
}
