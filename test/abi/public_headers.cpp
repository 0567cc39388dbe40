// Every public header, compiled with the warnings strict users build with
// and -Werror (target abi_public_headers): a program that includes them from
// a source tree (not as system headers) must not see warnings of ours.
#include <dynamics/collision.hpp>
#include <dynamics/contact.hpp>
#include <dynamics/contact_models.hpp>
#include <dynamics/coordinates.hpp>
#include <dynamics/diagnostics.hpp>
#include <dynamics/dynamics.hpp>
#include <dynamics/joint.hpp>
#include <dynamics/model.hpp>
#include <dynamics/models.hpp>
#include <dynamics/quaternion.hpp>
#include <dynamics/shapes.hpp>
#include <dynamics/simulator.hpp>
#include <dynamics/state.hpp>
#include <dynamics/urdf.hpp>
#include <graphsolve/block_matrix.hpp>
#include <graphsolve/eigen_abi.hpp>
#include <graphsolve/factorization.hpp>
#include <graphsolve/families.hpp>
#include <graphsolve/graph.hpp>
#include <graphsolve/graphsolve.hpp>
#include <graphsolve/huge_page_allocator.hpp>
#include <graphsolve/kernels.hpp>
#include <graphsolve/matrix_market.hpp>
#include <graphsolve/method.hpp>
#include <graphsolve/ordering.hpp>
#include <graphsolve/out_of_memory.hpp>
#include <graphsolve/pattern.hpp>
#include <graphsolve/sparse_export.hpp>
#include <graphsolve/sparse_import.hpp>
#include <graphsolve/status.hpp>
#include <graphsolve/symbolic.hpp>
