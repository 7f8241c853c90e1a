import { describe, expect, it } from "vitest";
import { mergeSections } from "../../bench/merge-sections.js";

describe("mergeSections", () => {
  const previous = "# Benchmark results\n\n- Date: then\n\n## Executor\n\nold executor\n\n## Search\n\nold search\n";

  it("replaces only the sections that ran and keeps the others", () => {
    const merged = mergeSections(previous, ["## Search\n\nnew search\n"], "_alone_");
    expect(merged).toBe(
      "# Benchmark results\n\n- Date: then\n\n## Executor\n\nold executor\n\n## Search\n\n_alone_\n\nnew search\n",
    );
  });

  it("appends a section the file did not have", () => {
    const merged = mergeSections(previous, ["## Cold start\n\nfresh"], "_alone_");
    expect(merged.endsWith("## Search\n\nold search\n\n## Cold start\n\n_alone_\n\nfresh\n")).toBe(true);
  });
});
