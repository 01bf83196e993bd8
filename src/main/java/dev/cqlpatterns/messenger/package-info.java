/**
 * Function group {@code messenger} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}):
 * conversations, messages and the inbox (seeds 000 and 001), one class per query pattern. {@code
 * bin/function-build messenger} builds the group alone.
 */
package dev.cqlpatterns.messenger;
