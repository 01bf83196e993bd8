package dev.cqlpatterns.messenger.inbox;

import java.util.List;

/** A page of summaries: up to one more than asked (a next page exists), and where the next page starts. */
record SummaryPage(List<Summary> found, Position next) {}
