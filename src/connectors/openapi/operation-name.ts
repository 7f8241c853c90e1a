/**
 * Method names for operations: identifier-friendly (`repos/list-for-org` →
 * `repos_list_for_org`), derived from method and path when there is no `operationId`
 * (`GET /pets/{petId}` → `get_pets_by_petId`), and unique within a connector.
 */

/** Turns any text into a JavaScript identifier made of letters, digits and `_`. */
function identifierFrom(text: string): string {
  const words = text.split(/[^A-Za-z0-9_$]+/).filter((word) => word !== "");
  const joined = words.join("_");
  if (joined === "") return "operation";
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** The base name of an operation before de-duplication. */
export function operationBaseName({
  operationId,
  method,
  path,
}: {
  operationId: string | undefined;
  method: string;
  path: string;
}): string {
  if (operationId !== undefined && operationId.trim() !== "") return identifierFrom(operationId);
  const segments = path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => segment.replace(/\{([^}]*)\}/g, "by_$1"));
  return identifierFrom([method.toLowerCase(), ...segments].join("_"));
}

/** Returns `name`, or `name_2`, `name_3`… whichever `taken` does not hold yet, and records it. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let counter = 2; taken.has(candidate); counter++) candidate = `${name}_${counter}`;
  taken.add(candidate);
  return candidate;
}
