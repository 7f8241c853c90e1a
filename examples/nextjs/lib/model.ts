import { openai } from "@ai-sdk/openai";
import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";
import { createScriptedModel } from "./scripted-model";

// The Workflow SDK's serialization symbols (`@workflow/serde`), declared in this file: the builder registers a class
// for the step bundle only when it sees where its symbols come from.
const WORKFLOW_SERIALIZE = Symbol.for("workflow-serialize");
const WORKFLOW_DESERIALIZE = Symbol.for("workflow-deserialize");

/** OpenAI when OPENAI_API_KEY is set; otherwise the offline scripted model. */
export function getModel(): LanguageModel {
  if (process.env.OPENAI_API_KEY) return openai(process.env.OPENAI_MODEL ?? "gpt-5-mini");
  return createScriptedModel();
}

/**
 * OpenAI for the `/workflow` chat. A `WorkflowAgent` hands its model to a step, so the model is written into the
 * run's events: an `@ai-sdk/openai` model would write its resolved headers there, the API key included. This one
 * writes only its model id; the OpenAI model is made inside the step, where the key is read from the environment.
 */
export class OpenAIStepModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "openai";

  constructor(readonly modelId: string) {}

  static [WORKFLOW_SERIALIZE](model: OpenAIStepModel): { modelId: string } {
    return { modelId: model.modelId };
  }

  static [WORKFLOW_DESERIALIZE]({ modelId }: { modelId: string }): OpenAIStepModel {
    return new OpenAIStepModel(modelId);
  }

  get supportedUrls() {
    return openai(this.modelId).supportedUrls;
  }

  doStream(options: LanguageModelV4CallOptions) {
    return openai(this.modelId).doStream(options);
  }

  doGenerate(options: LanguageModelV4CallOptions) {
    return openai(this.modelId).doGenerate(options);
  }
}
