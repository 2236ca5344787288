// Placeholder so that the lua module has a source until the host lands.
namespace loadcell {}
