/**
 * Function group {@code posts} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): posts
 * with their comments in one partition (seed 004), one class per query pattern. {@code
 * bin/function-build posts} builds the group alone.
 */
package dev.cqlpatterns.posts;
