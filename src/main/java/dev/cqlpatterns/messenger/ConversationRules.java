package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Checks on a new conversation beyond Bean Validation: its members and title within the messenger's bounds. */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class ConversationRules {
    @Inject
    MessengerSettings settings;

    /**
     * The members, {@code me} and those {@code requested}, sorted, when they are 2 to max-members valid
     * usernames; else 400. {@code fields} gets the field that named each member.
     */
    Set<String> members(String me, List<String> requested, Map<String, String> fields) {
        Set<String> members = new TreeSet<>();
        members.add(Conversations.requireUsername("caller", me));
        for (int i = 0; i < requested.size(); i++) {
            String member = Conversations.requireUsername("members[" + i + "]", requested.get(i));
            members.add(member);
            fields.putIfAbsent(member, "members[" + i + "]");
        }
        fields.put(me, "caller");
        if (members.size() < 2) {
            throw ProblemException.invalid("members", "must name at least one user other than you");
        }
        if (members.size() > settings.maxMembers()) {
            throw ProblemException.invalid("members", "at most " + settings.maxMembers() + " members, you included");
        }
        return members;
    }

    /** The title stripped (blank: none), when it is one line of at most max-title-length characters; else 400. */
    String title(String raw) {
        // control characters are refused before stripping: "\tTrip\n" is not "Trip"
        if (raw != null && !Text.isSingleLine(raw)) {
            throw ProblemException.invalid("title", Text.SINGLE_LINE_MESSAGE);
        }
        String title = raw == null || raw.isBlank() ? null : raw.strip();
        if (title != null && Text.length(title) > settings.maxTitleLength()) {
            throw ProblemException.invalid("title", "at most " + settings.maxTitleLength() + " characters");
        }
        return title;
    }
}
