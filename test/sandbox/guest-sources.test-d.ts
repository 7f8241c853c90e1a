/** The committed declaration of the generated guest module names the modules the generator bundles. */
import { expectTypeOf, test } from "vitest";
import type { GUEST_MODULES } from "../../scripts/guest-sources.js";
import type { GuestModuleName } from "../../src/sandbox/guest-sources.js";

test("GuestModuleName is the generator's list", () => {
  expectTypeOf<GuestModuleName>().toEqualTypeOf<keyof typeof GUEST_MODULES>();
});
