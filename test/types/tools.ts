// Compiled by `tsc --noEmit` (tsconfig includes test/), never run: a tool's
// `execute` is typed by its schema's output, for valibot and for zod, and a
// wrong use breaks the build.
import * as v from 'valibot'
import { z } from 'zod'
import { tool } from '../../src/tools/tool.js'

type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const is = <A, B>(_: Is<A, B>) => {}

export const fromValibot = tool({
  name: 'forecast',
  parameters: v.object({ city: v.string(), days: v.pipe(v.string(), v.transform(Number)) }),
  execute: (args) => {
    // The schema's output: `days` as the number its transform makes.
    is<typeof args, { city: string; days: number }>(true)
    // @ts-expect-error: no such argument
    return args.country
  },
})

export const fromZod = tool({
  name: 'get_weather',
  parameters: z.object({ city: z.string(), units: z.enum(['c', 'f']) }),
  execute: ({ city, units }) => {
    is<typeof city, string>(true)
    is<typeof units, 'c' | 'f'>(true)
    return `${city} ${units}`
  },
})
