// Cost limits of kube-apiserver 1.31 for CEL rules, and the messages used
// when they are exceeded. Boundary: constants and message text.

/** Static estimate allowed for one expression. */
export const PER_EXPRESSION_ESTIMATE_LIMIT = 10_000_000;
/** Static estimate allowed for all rules of one CRD schema together. */
export const PER_CRD_ESTIMATE_LIMIT = 100_000_000;
/** Runtime cost allowed for one evaluation of one expression. */
export const PER_CALL_RUNTIME_LIMIT = 1_000_000;
/** Runtime cost allowed for all rules evaluated while validating one object. */
export const RUNTIME_BUDGET_PER_OBJECT = 10_000_000;

/** How upstream prints the excess: "more than 100x" beyond two orders of magnitude, six decimals below 1.5, one above. */
export function factor(cost: number, limit: number): string {
  const f = cost / limit;
  if (f > 100) return 'more than 100x';
  if (f < 1.5) return `${f.toFixed(6)}x`;
  return `${f.toFixed(1)}x`;
}

export function estimateTooHighMessage(cost: number, limit = PER_EXPRESSION_ESTIMATE_LIMIT): string {
  return `estimated rule cost exceeds budget by factor of ${factor(cost, limit)} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

export function totalTooHighMessage(cost: number, limit = PER_CRD_ESTIMATE_LIMIT): string {
  return `x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of ${factor(cost, limit)} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

export const RUNTIME_BUDGET_EXCEEDED = 'validation failed due to running out of cost budget, no further validation rules will be run';
export const PER_CALL_EXCEEDED = 'operation cancelled: actual cost limit exceeded';
