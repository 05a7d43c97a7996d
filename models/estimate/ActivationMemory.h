#pragma once
// Empty: the ActivationMemory unit (Korthikanti et al.'s activation formula) was read by nothing but its test and
// is gone; estimate/ActivationModel sizes activations. This header stays only while advise/ZeroAdvisor.cpp still
// includes it: delete it, and its line in models/Sources.cmake, with that include.
