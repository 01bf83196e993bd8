/**
 * Function group {@code messenger} ({@link dev.cqlpatterns.platform.functions.FunctionGroup}): the
 * inbox, GET /inbox, and the tables it reads (inbox_by_user, inbox_by_day, messages_by_previous),
 * with the writes that keep a member's inbox in step when they join, are sent a message, read or
 * leave.
 */
package dev.cqlpatterns.messenger.inbox;
