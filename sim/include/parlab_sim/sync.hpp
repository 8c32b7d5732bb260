#pragma once
// Block and warp synchronization, fences, clocks, __trap. __syncthreads is a real
// barrier over every thread of the block; the call site is recorded so the simulator
// can report threads that wait at different __syncthreads() (docs/simulation.md).
#include <source_location>

void __syncthreads(std::source_location site = std::source_location::current());
int __syncthreads_count(int predicate,
                        std::source_location site = std::source_location::current());
int __syncthreads_and(int predicate,
                      std::source_location site = std::source_location::current());
int __syncthreads_or(int predicate,
                     std::source_location site = std::source_location::current());

// Waits until every lane named in `mask` (that has not exited) reaches __syncwarp.
void __syncwarp(unsigned int mask = 0xffffffffu);
// Lanes of the calling warp that have not exited.
unsigned int __activemask();

void __threadfence();
void __threadfence_block();
void __threadfence_system();

// Nanoseconds of a host steady clock: elapsed-time arithmetic works, cycle counts don't.
long long int clock64();
// Lets the other threads of the block run; it does not sleep.
void __nanosleep(unsigned int nanoseconds);
// Stops the program with a report naming the kernel, block and thread.
[[noreturn]] void __trap();
[[noreturn]] void __brkpt();
