// A TypeDoc plugin (typedoc.json loads it): a signature's return and
// parameter types are shown as the source writes them, `Observable<Response>`,
// as in the published .d.ts files. TypeDoc otherwise prints what the type
// checker resolves them to, and the payload types are inferred from valibot
// schemas (`v.InferOutput<typeof ResponseSchema>`), which the checker keeps no
// name for: every operator over a `Response` would print its hundred fields
// inline, once per signature.
import { ReflectionKind } from 'typedoc'

const WRITTEN = ReflectionKind.CallSignature | ReflectionKind.Parameter

/** @param {import('typedoc').Application} app */
export function load(app) {
  const convertType = app.converter.convertType
  app.converter.convertType = function (context, typeOrNode, node) {
    // A checker type (not a node) with the annotation it came from, for a
    // signature's return type or a parameter: convert the annotation.
    const written = node && typeOrNode && !('kind' in typeOrNode) && context.scope.kindOf(WRITTEN)
    return written ? convertType.call(this, context, node) : convertType.call(this, context, typeOrNode, node)
  }
}
