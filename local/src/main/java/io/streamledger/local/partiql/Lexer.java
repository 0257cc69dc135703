package io.streamledger.local.partiql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one PartiQL statement into tokens: bare and double-quoted identifiers, single-quoted
 * strings ({@code ''} escapes a quote), numbers, {@code ?} parameters and punctuation ({@code <<}
 * and {@code >>} open and close a set); {@code --} and {@code /* *}{@code /} comments are skipped.
 * The AP16/AP17 conditional writes of the Flink sinks arrive as this text.
 */
final class Lexer {
    enum Kind {
        IDENT,
        QUOTED,
        STRING,
        NUMBER,
        PARAM,
        PUNCT,
        END
    }

    /** One token; {@code line}/{@code column} are 1-based, as PartiQL's error positions. */
    record Token(Kind kind, String text, int line, int column, int length) {
        boolean is(String punct) {
            return kind == Kind.PUNCT && text.equals(punct);
        }

        boolean isKeyword(String keyword) {
            return kind == Kind.IDENT && text.equalsIgnoreCase(keyword);
        }

        /** PartiQL's position suffix of a message, {@code line:column:length}. */
        String position() {
            return line + ":" + column + ":" + length;
        }
    }

    private final String s;
    private int i;
    private int line = 1;
    private int lineStart;

    private Lexer(String s) {
        this.s = s;
    }

    /**
     * Tokens of the statement, ending with an END token; throws the malformed-statement
     * ValidationException.
     */
    static List<Token> tokens(String statement) {
        return new Lexer(statement).run();
    }

    private List<Token> run() {
        List<Token> out = new ArrayList<>();
        while (true) {
            skipBlanksAndComments();
            if (i >= s.length()) {
                out.add(new Token(Kind.END, "", line, i - lineStart + 1, 0));
                return out;
            }
            int start = i;
            int column = i - lineStart + 1;
            char c = s.charAt(i);
            if (Character.isLetter(c) || c == '_') {
                while (i < s.length() && isIdentPart(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(Kind.IDENT, s.substring(start, i), line, column, i - start));
            } else if (c == '"' || c == '\'') {
                String text = quoted(c);
                out.add(
                        new Token(
                                c == '"' ? Kind.QUOTED : Kind.STRING,
                                text,
                                line,
                                column,
                                i - start));
            } else if (Character.isDigit(c)
                    || (c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)))) {
                out.add(new Token(Kind.NUMBER, number(), line, column, i - start));
            } else if (c == '?') {
                i++;
                out.add(new Token(Kind.PARAM, "?", line, column, 1));
            } else {
                String punct = punct(c);
                if (punct == null) {
                    throw Messages.malformed(s);
                }
                i += punct.length();
                out.add(new Token(Kind.PUNCT, punct, line, column, punct.length()));
            }
        }
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    private void skipBlanksAndComments() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n') {
                i++;
                line++;
                lineStart = i;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (s.startsWith("--", i)) {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                if (end < 0) {
                    throw Messages.malformed(s);
                }
                for (int k = i; k < end; k++) {
                    if (s.charAt(k) == '\n') {
                        line++;
                        lineStart = k + 1;
                    }
                }
                i = end + 2;
            } else {
                return;
            }
        }
    }

    /** A quoted string or identifier; the quote character doubled stands for itself. */
    private String quoted(char quote) {
        StringBuilder sb = new StringBuilder();
        i++;
        while (true) {
            if (i >= s.length()) {
                throw Messages.malformed(s);
            }
            char c = s.charAt(i);
            if (c == quote) {
                if (i + 1 < s.length() && s.charAt(i + 1) == quote) {
                    sb.append(quote);
                    i += 2;
                    continue;
                }
                i++;
                return sb.toString();
            }
            if (c == '\n') {
                line++;
                lineStart = i + 1;
            }
            sb.append(c);
            i++;
        }
    }

    private String number() {
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int mark = i;
            i++;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            if (i >= s.length() || !Character.isDigit(s.charAt(i))) {
                i = mark; // not an exponent: leave the letter to the next token
            } else {
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
            }
        }
        return s.substring(start, i);
    }

    private String punct(char c) {
        String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
        switch (two) {
            case "<<", ">>", "<=", ">=", "<>", "!=":
                return two;
            default:
                break;
        }
        return "()[]{},.;:*=<>+-".indexOf(c) >= 0 ? String.valueOf(c) : null;
    }
}
