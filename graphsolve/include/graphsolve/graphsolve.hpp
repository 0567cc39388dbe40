#pragma once
// Umbrella header: everything a user of graphsolve needs.
#include "graphsolve/block_matrix.hpp"
#include "graphsolve/factorization.hpp"
#include "graphsolve/graph.hpp"
#include "graphsolve/kernels.hpp"
#include "graphsolve/matrix_market.hpp"
#include "graphsolve/method.hpp"
#include "graphsolve/ordering.hpp"
#include "graphsolve/pattern.hpp"
#include "graphsolve/sparse_export.hpp"
#include "graphsolve/sparse_import.hpp"
#include "graphsolve/status.hpp"
#include "graphsolve/symbolic.hpp"
