// The semantic tier: envelope, redaction, questions, judges, decide. Hosts use createSemanticTier;
// judges from outside the core (the VS Code language model) implement Judge.
export { createSemanticTier } from './tier';
export type {
  SemanticTier,
  SemanticTierHandle,
  SemanticTierOptions,
  SemanticRun,
  SemanticResult,
  SemanticStartInput,
} from './tier';
export { checkAnswers, JudgeError } from './judges/types';
export type { Judge, JudgeFailure, JudgeReply, JudgeRequest, JudgeUsage } from './judges/types';
export { defaultJudgeFactory } from './judges/factory';
export type { JudgeContext, JudgeFactory, SemanticConfig } from './judges/factory';
export { REVIEWER_INSTRUCTIONS, reviewDocument, extractJsonObject } from './judges/prompt';
export { SystemoneJudge } from './judges/systemone';
export { OpenAiJudge } from './judges/openai';
export { AnthropicJudge } from './judges/anthropic';
export { buildEnvelope } from './envelope';
export type { BuiltEnvelope, EnvelopeInput } from './envelope';
export { readTranscriptTail } from './transcript';
export type { TranscriptTail, TranscriptReadOptions } from './transcript';
export { DEFAULT_CAPS } from './caps';
export type { Caps } from './caps';
export {
  INJECTION_QUESTION,
  TASK_QUESTIONS,
  SEMANTIC_POLICIES,
  selectQuestions,
  semanticPolicyNames,
} from './questions';
export type { Question, SemanticPolicy, SelectedPolicy, QuestionSet } from './questions';
export { decide, DEFAULT_THRESHOLDS } from './decide';
export type { DecideInput, SemanticDecision, Thresholds, PolicyVerdict } from './decide';
export { mergeOutcomes } from './merge';
