package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the two machine-read sections out of the seed markdown: the TASK6_MODEL block (inside its
 * {@code ```text} fence) and the capacity render table, each as the verbatim lines.
 */
public final class SeedSections {
    public static final String MODEL_BEGIN = "<!-- TASK6_MODEL_BEGIN -->";
    public static final String MODEL_END = "<!-- TASK6_MODEL_END -->";
    public static final String RENDER_BEGIN = "<!-- TASK6_CHAPTER_CAPACITY_RENDER_BEGIN -->";
    public static final String RENDER_END = "<!-- TASK6_CHAPTER_CAPACITY_RENDER_END -->";
    private static final String FENCE_OPEN = "```text";
    private static final String FENCE_CLOSE = "```";

    private SeedSections() {}

    /** The TASK6_MODEL block's lines without the fence lines. */
    public static List<String> modelLines(String seedMarkdown) {
        List<String> lines = between(seedMarkdown, MODEL_BEGIN, MODEL_END);
        if (lines.size() < 2
                || !lines.get(0).strip().equals(FENCE_OPEN)
                || !lines.get(lines.size() - 1).strip().equals(FENCE_CLOSE)) {
            throw new IllegalArgumentException("TASK6_MODEL section is not a single ```text fence");
        }
        return List.copyOf(lines.subList(1, lines.size() - 1));
    }

    /** The render table's lines between its markers. */
    public static List<String> renderLines(String seedMarkdown) {
        return between(seedMarkdown, RENDER_BEGIN, RENDER_END);
    }

    private static List<String> between(String markdown, String begin, String end) {
        List<String> out = new ArrayList<>();
        boolean inside = false;
        boolean seenBegin = false;
        for (String line : markdown.split("\\R", -1)) {
            if (line.strip().equals(begin)) {
                if (seenBegin) {
                    throw new IllegalArgumentException("marker appears twice: " + begin);
                }
                inside = true;
                seenBegin = true;
            } else if (line.strip().equals(end) && inside) {
                return List.copyOf(out);
            } else if (inside) {
                out.add(line);
            }
        }
        throw new IllegalArgumentException(
                seenBegin ? "missing end marker " + end : "missing begin marker " + begin);
    }
}
