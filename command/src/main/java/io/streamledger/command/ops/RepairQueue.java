package io.streamledger.command.ops;

import io.javalin.Javalin;

/** AP18 repair queue for Orders Ops (placeholder until its routes land). */
public final class RepairQueue {
    void register(Javalin app) {}
}
