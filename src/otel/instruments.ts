import type { Histogram, Meter } from '@opentelemetry/api'

/** The two client metrics of the GenAI conventions. */
export interface Instruments {
  /** `gen_ai.client.token.usage`: tokens per response, by `gen_ai.token.type` (`input`, `output`). */
  readonly tokens: Histogram
  /** `gen_ai.client.operation.duration`: seconds per call, from subscription to its end. */
  readonly duration: Histogram
}

// The conventions' advised bucket boundaries: powers of 4 tokens, and doubling seconds from 10 ms.
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]
const SECOND_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92]

// Made once per meter: a meter provider registered later gives a new meter, and so new instruments.
const made = new WeakMap<Meter, Instruments>()

/** The instruments of `meter`, made the first time it is asked for. */
export function instrumentsOf(meter: Meter): Instruments {
  let instruments = made.get(meter)
  if (!instruments) {
    instruments = {
      tokens: meter.createHistogram('gen_ai.client.token.usage', {
        description: 'Number of input and output tokens used.',
        unit: '{token}',
        advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
      }),
      duration: meter.createHistogram('gen_ai.client.operation.duration', {
        description: 'GenAI operation duration.',
        unit: 's',
        advice: { explicitBucketBoundaries: SECOND_BUCKETS },
      }),
    }
    made.set(meter, instruments)
  }
  return instruments
}
