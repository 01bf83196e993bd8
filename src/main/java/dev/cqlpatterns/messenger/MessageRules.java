package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.http.WebUrls;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.TreeMap;

/** Checks on a message beyond Bean Validation: its content and attachments within the messenger's bounds. */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class MessageRules {
    @Inject
    MessengerSettings settings;

    /** The content, when it is 1 to max-content-length characters of free text, not all white space; else 400. */
    String content(String content) {
        if (content == null || content.isBlank()) {
            throw ProblemException.invalid("content", "must not be empty");
        }
        if (Text.length(content) > settings.maxContentLength()) {
            throw ProblemException.invalid("content", "at most " + settings.maxContentLength() + " characters");
        }
        if (!Text.isFreeText(content)) {
            throw ProblemException.invalid("content", Text.FREE_TEXT_MESSAGE);
        }
        return content;
    }

    /** The attachments (none: empty), when each name and URL is within bounds; else 400 naming the field. */
    Map<String, String> attachments(Map<String, String> attachments) {
        if (attachments == null) {
            return Map.of();
        }
        if (attachments.size() > settings.maxAttachments()) {
            throw ProblemException.invalid("attachments", "at most " + settings.maxAttachments() + " attachments");
        }
        Map<String, String> valid = new TreeMap<>();
        attachments.forEach((name, url) -> {
            if (name.isBlank() || Text.length(name) > settings.maxAttachmentNameLength()) {
                throw ProblemException.invalid(
                        "attachments", "names must be 1 to " + settings.maxAttachmentNameLength() + " characters");
            }
            if (!Text.isSingleLine(name)) {
                throw ProblemException.invalid("attachments", "names " + Text.SINGLE_LINE_MESSAGE);
            }
            if (!WebUrls.isWebUrl(url) || Text.length(url) > settings.maxAttachmentUrlLength()) {
                throw ProblemException.invalid(
                        "attachments." + name,
                        "must be an http(s) URL of at most " + settings.maxAttachmentUrlLength() + " characters");
            }
            valid.put(name, url);
        });
        return valid;
    }
}
