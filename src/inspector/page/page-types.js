// @ts-check
/**
 * Types of the inspector's browser script (`src/inspector/page/`): what its API answers and what the page keeps
 * between refreshes. JSDoc only: nothing of this file reaches the bundle.
 */

/**
 * One call as the page reads it from `…/api/executions/:id` (the execution's calls and the timeline's).
 *
 * @typedef {object} PageCall
 * @property {number} seq
 * @property {string} connector
 * @property {string} method
 * @property {unknown} [args]
 * @property {unknown} [approvedArgs]
 * @property {unknown} [result]
 * @property {string} [error]
 * @property {string} [state]
 * @property {string} [status]
 * @property {boolean} [revertible]
 * @property {boolean} [editable]
 * @property {number} [pass]
 * @property {number} [startedAt]
 * @property {number} [finishedAt]
 * @property {number} [durationMs]
 * @property {number} [approvedAt]
 * @property {string} [decidedBy]
 * @property {number} [cost]
 * @property {number[]} [replayedInPasses]
 */

/**
 * @typedef {object} PageTimeline
 * @property {number} startedAt
 * @property {number} endedAt
 * @property {Array<{ pass: number, trigger?: string, startedAt: number, endedAt: number }>} passes
 * @property {Array<PageCall & { state: string, pass: number, replayedInPasses: number[] }>} calls
 * @property {Array<{ seq: number, from: number, to?: number }>} waits
 * @property {Array<{ decision: string, seq?: number, decidedBy?: string, at: number, reason?: string }>} decisions
 */

/**
 * @typedef {object} PageExecution
 * @property {string} executionId
 * @property {string} status
 * @property {string} code
 * @property {string[]} logs
 * @property {number} passes
 * @property {number} createdAt
 * @property {number} updatedAt
 * @property {PageCall[]} calls
 * @property {PageCall[]} pending
 * @property {unknown} [result]
 * @property {string} [error]
 * @property {string} [kind]
 * @property {string} [workflowRunId]
 */

/**
 * @typedef {object} PageDetail
 * @property {PageExecution} execution
 * @property {PageTimeline} timeline
 * @property {boolean} readOnly
 * @property {number} now
 * @property {string} [workflowRunUrl] where the execution's workflow run is observed (the `workflowRunUrl` option)
 */

/**
 * @typedef {object} PageRow
 * @property {string} executionId
 * @property {string} status
 * @property {number} pending
 * @property {number} calls
 * @property {string} summary
 * @property {number} startedAt
 * @property {number} durationMs
 */

/**
 * @typedef {object} PageList
 * @property {string} runtime
 * @property {boolean} readOnly
 * @property {PageRow[]} executions
 */

/**
 * What the page keeps across refreshes. `chosen`, `reason` and `edits` (JSON text per call) are what the person
 * picked for a paused execution.
 *
 * @typedef {object} PageState
 * @property {string | null} selected
 * @property {boolean} readOnly
 * @property {string} listKey
 * @property {string} detailKey
 * @property {Record<string, boolean>} chosen
 * @property {string} reason
 * @property {Record<string, string>} edits
 */

/**
 * The time axis (`src/inspector/timeline-scale.ts`, handed to the page as source so the page and its unit tests share
 * it).
 *
 * @typedef {typeof import("../timeline-scale.js").timelineScale} TimelineScale
 */

/**
 * What the views share: the page's state, its API and the two loaders an action refreshes.
 *
 * @typedef {object} PageContext
 * @property {PageState} state
 * @property {<T>(path: string, init?: RequestInit) => Promise<T>} getJson
 * @property {() => Promise<void>} loadList
 * @property {() => Promise<void>} loadDetail
 */

export {};
